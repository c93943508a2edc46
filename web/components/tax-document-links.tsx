import type { OrderDetail } from "../../common/orders.ts";

/**
 * Download links for an order's GST tax invoice and credit note, when issued. `base` is the order's API
 * address (the customer's or the admin's); the server answers with the PDF as an attachment.
 */
export function TaxDocumentLinks({ base, documents }: { base: string; documents: OrderDetail["documents"] }) {
  if (!documents.invoice && !documents.creditNote) return null;
  const link = "font-medium text-brand-700 underline dark:text-brand-100";
  return (
    <ul className="mt-3 space-y-1 text-sm">
      {documents.invoice && (
        <li>
          <a href={`${base}/invoice.pdf`} download className={link}>
            Download tax invoice <span className="font-mono">{documents.invoice}</span>
          </a>
        </li>
      )}
      {documents.creditNote && (
        <li>
          <a href={`${base}/credit-note.pdf`} download className={link}>
            Download credit note <span className="font-mono">{documents.creditNote}</span>
          </a>
        </li>
      )}
    </ul>
  );
}
