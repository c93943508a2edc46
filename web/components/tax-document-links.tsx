import type { OrderDetail } from "../../common/orders.ts";

/**
 * Download links for an order's GST tax invoice and credit note, when issued. `base` is the order's API
 * address (the customer's, the guest's or the admin's); `search` carries what that address needs besides the
 * session (a guest order's signed token). The server answers with the PDF as an attachment.
 */
export function TaxDocumentLinks({
  base,
  documents,
  search = "",
}: {
  base: string;
  documents: OrderDetail["documents"];
  search?: string;
}) {
  if (!documents.invoice && !documents.creditNote) return null;
  const link = "font-medium text-brand-700 underline dark:text-brand-100";
  return (
    <ul className="mt-3 space-y-1 text-sm">
      {documents.invoice && (
        <li>
          <a href={`${base}/invoice.pdf${search}`} download className={link}>
            Download tax invoice <span className="font-mono">{documents.invoice}</span>
          </a>
        </li>
      )}
      {documents.creditNote && (
        <li>
          <a href={`${base}/credit-note.pdf${search}`} download className={link}>
            Download credit note <span className="font-mono">{documents.creditNote}</span>
          </a>
        </li>
      )}
    </ul>
  );
}
