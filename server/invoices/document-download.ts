import type { DocumentKind } from "../../common/gst.ts";
import type { Db } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { renderTaxDocumentPdf } from "./invoice-pdf.ts";
import { documentFileName, findTaxDocument } from "./tax-documents.ts";

const MISSING: Record<DocumentKind, string> = {
  invoice: "This order has no tax invoice yet: it is issued when the order is confirmed.",
  credit_note: "This order has no credit note.",
};

/** The order's invoice or credit note as a PDF download; 404 when it has none. */
export async function taxDocumentResponse(db: Db, orderId: string, kind: DocumentKind): Promise<Response> {
  const view = await findTaxDocument(db, orderId, kind);
  if (!view) throw notFound(MISSING[kind]);
  const pdf = await renderTaxDocumentPdf(view);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${documentFileName(view.document.number)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
