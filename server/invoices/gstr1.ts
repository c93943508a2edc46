import { and, asc, eq, gte, lt, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type DocumentKind, documentNumber, financialYear } from "../../common/gst.ts";
import { isIndianState } from "../../common/india.ts";
import { stateCodeOf } from "../../common/schemas/shop.ts";
import type { Gstr1Query, Gstr1Section } from "../../common/schemas/tax.ts";
import { csvRow } from "../csv.ts";
import type { Db } from "../db/client.ts";
import { orders, taxDocumentLines, taxDocuments } from "../db/schema.ts";

/**
 * A month's GSTR-1 as the files an accountant imports into GSTN's offline tool (docs/decisions/044). Sums
 * are worked out by PostgreSQL (one row per state and rate, or per HSN, rate and unit), and the list of
 * documents is read in batches by keyset: a year of orders never passes through this process at once.
 * Credit notes count against the month they are issued in, whichever month their invoice was.
 */

const IST_OFFSET_MS = 330 * 60_000;
const LIST_BATCH = 1_000;

/** The month's bounds in India time, and the one financial year it lies in (April to March). */
export function monthInIndia(month: string) {
  const [year = 0, monthNumber = 0] = month.split("-").map(Number);
  const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, "0")}`;
  const start = new Date(`${month}-01T00:00:00+05:30`);
  return { start, end: new Date(`${next}-01T00:00:00+05:30`), financialYear: financialYear(start) };
}

const rupees = (paise: number) => (paise / 100).toFixed(2);
const percent = (rateBp: number) => String(rateBp / 100);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** The offline tool's date format, 05-Nov-2026, in India time. */
function toolDate(moment: Date): string {
  const india = new Date(moment.getTime() + IST_OFFSET_MS);
  const day = String(india.getUTCDate()).padStart(2, "0");
  return `${day}-${MONTHS[india.getUTCMonth()]}-${india.getUTCFullYear()}`;
}
/** "33-Tamil Nadu": the state code and name, as the returns write a place of supply. */
const placeOfSupply = (state: string) => (isIndianState(state) ? `${stateCodeOf(state)}-${state}` : state);

/** +1 for an invoice, -1 for a credit note: credit notes net against the month's sales. */
const direction = sql`(case when ${taxDocuments.kind} = 'credit_note' then -1 else 1 end)`;
/** Invoices before credit notes ("invoice" sorts after "credit_note"). */
const invoicesFirst = sql`${taxDocuments.kind} desc`;

const netSum = (column: SQLWrapper) =>
  sql<number>`coalesce(sum(${direction} * ${column}), 0)::bigint`.mapWith(Number);

function inMonth(month: ReturnType<typeof monthInIndia>) {
  return and(gte(taxDocuments.issuedAt, month.start), lt(taxDocuments.issuedAt, month.end));
}

const B2CS_HEADER = [
  "Type",
  "Place Of Supply",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Integrated Tax Amount",
  "Central Tax Amount",
  "State/UT Tax Amount",
  "Cess Amount",
  "E-Commerce GSTIN",
];

/** Table 7: B2C (small) supplies by place of supply and rate, net of the month's credit notes. */
async function b2csRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select({
      placeOfSupply: taxDocuments.placeOfSupply,
      rateBp: taxDocumentLines.rateBp,
      taxablePaise: netSum(taxDocumentLines.taxablePaise),
      igstPaise: netSum(taxDocumentLines.igstPaise),
      cgstPaise: netSum(taxDocumentLines.cgstPaise),
      sgstPaise: netSum(taxDocumentLines.sgstPaise),
    })
    .from(taxDocumentLines)
    .innerJoin(taxDocuments, eq(taxDocuments.id, taxDocumentLines.documentId))
    .where(inMonth(month))
    .groupBy(taxDocuments.placeOfSupply, taxDocumentLines.rateBp)
    .orderBy(asc(taxDocuments.placeOfSupply), asc(taxDocumentLines.rateBp));
  return rows.map((row) =>
    csvRow([
      // Other than through an e-commerce operator: the shop sells on its own site.
      "OE",
      placeOfSupply(row.placeOfSupply),
      "",
      percent(row.rateBp),
      rupees(row.taxablePaise),
      rupees(row.igstPaise),
      rupees(row.cgstPaise),
      rupees(row.sgstPaise),
      rupees(0),
      "",
    ]),
  );
}

const HSN_HEADER = [
  "HSN",
  "Description",
  "UQC",
  "Total Quantity",
  "Total Value",
  "Rate",
  "Taxable Value",
  "Integrated Tax Amount",
  "Central Tax Amount",
  "State/UT Tax Amount",
  "Cess Amount",
];

/** The units the documents use, as the offline tool's list of unit quantity codes names them. */
const UQC: Record<string, string> = { NOS: "NOS-NUMBERS", SET: "SET-SETS", OTH: "OTH-OTHERS" };

/**
 * Table 12: the HSN summary by HSN, rate and unit. The delivery charge is a service (SAC 9968): the tool
 * takes services with the unit "NA" and no quantity.
 */
async function hsnRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select({
      hsn: taxDocumentLines.hsn,
      kind: taxDocumentLines.kind,
      unit: taxDocumentLines.unit,
      rateBp: taxDocumentLines.rateBp,
      description: sql<string>`string_agg(distinct ${taxDocumentLines.description}, '; ' order by ${taxDocumentLines.description})`,
      quantity: netSum(taxDocumentLines.quantity),
      totalPaise: netSum(taxDocumentLines.totalPaise),
      taxablePaise: netSum(taxDocumentLines.taxablePaise),
      igstPaise: netSum(taxDocumentLines.igstPaise),
      cgstPaise: netSum(taxDocumentLines.cgstPaise),
      sgstPaise: netSum(taxDocumentLines.sgstPaise),
    })
    .from(taxDocumentLines)
    .innerJoin(taxDocuments, eq(taxDocuments.id, taxDocumentLines.documentId))
    .where(inMonth(month))
    .groupBy(taxDocumentLines.hsn, taxDocumentLines.kind, taxDocumentLines.unit, taxDocumentLines.rateBp)
    .orderBy(
      sql`${taxDocumentLines.hsn} asc nulls first`,
      asc(taxDocumentLines.unit),
      asc(taxDocumentLines.rateBp),
    );
  return rows.map((row) => {
    const service = row.kind === "shipping";
    return csvRow([
      // Blank when the owner has not set a product's HSN yet: the accountant must fill it in.
      row.hsn,
      row.description,
      service ? "NA" : (UQC[row.unit] ?? row.unit),
      service ? 0 : row.quantity,
      rupees(row.totalPaise),
      percent(row.rateBp),
      rupees(row.taxablePaise),
      rupees(row.igstPaise),
      rupees(row.cgstPaise),
      rupees(row.sgstPaise),
      rupees(0),
    ]);
  });
}

const DOCS_HEADER = ["Nature of Document", "Sr. No. From", "Sr. No. To", "Total Number", "Cancelled"];
const NATURE: Record<DocumentKind, string> = {
  invoice: "Invoices for outward supply",
  credit_note: "Credit Note",
};

/**
 * Table 13: the range of each series used in the month. The series have no gaps and no issued document is
 * ever cancelled (a credit note reverses it instead), so none are reported cancelled.
 */
async function docsRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select({
      kind: taxDocuments.kind,
      first: sql<number>`min(${taxDocuments.sequence})`.mapWith(Number),
      last: sql<number>`max(${taxDocuments.sequence})`.mapWith(Number),
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.financialYear, month.financialYear), inMonth(month)))
    .groupBy(taxDocuments.kind)
    .orderBy(invoicesFirst);
  return rows.map((row) => {
    const kind = row.kind as DocumentKind;
    return csvRow([
      NATURE[kind],
      documentNumber(kind, month.financialYear, row.first),
      documentNumber(kind, month.financialYear, row.last),
      row.count,
      0,
    ]);
  });
}

const DOCUMENTS_HEADER = [
  "Nature of Document",
  "Document Number",
  "Document Date",
  "Order Number",
  "Receiver Name",
  "Original Invoice Number",
  "Original Invoice Date",
  "Reason",
  "Place Of Supply",
  "Taxable Value",
  "Integrated Tax Amount",
  "Central Tax Amount",
  "State/UT Tax Amount",
  "Cess Amount",
  "Document Value",
];

const originalInvoice = alias(taxDocuments, "original_invoice");

function documentsBatch(
  db: Db,
  month: ReturnType<typeof monthInIndia>,
  after: { kind: string; sequence: number } | null,
  size: number,
) {
  return db
    .select({
      kind: taxDocuments.kind,
      sequence: taxDocuments.sequence,
      number: taxDocuments.number,
      issuedAt: taxDocuments.issuedAt,
      orderNumber: orders.number,
      buyerName: sql<string>`${taxDocuments.buyer} ->> 'name'`,
      invoiceNumber: originalInvoice.number,
      invoiceIssuedAt: originalInvoice.issuedAt,
      reason: taxDocuments.reason,
      placeOfSupply: taxDocuments.placeOfSupply,
      taxablePaise: taxDocuments.taxablePaise,
      igstPaise: taxDocuments.igstPaise,
      cgstPaise: taxDocuments.cgstPaise,
      sgstPaise: taxDocuments.sgstPaise,
      totalPaise: taxDocuments.totalPaise,
    })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .leftJoin(originalInvoice, eq(originalInvoice.id, taxDocuments.invoiceId))
    .where(
      and(
        eq(taxDocuments.financialYear, month.financialYear),
        inMonth(month),
        after
          ? sql`(${taxDocuments.kind} < ${after.kind} or (${taxDocuments.kind} = ${after.kind} and ${taxDocuments.sequence} > ${after.sequence}))`
          : undefined,
      ),
    )
    .orderBy(invoicesFirst, asc(taxDocuments.sequence))
    .limit(size);
}

type DocumentRow = Awaited<ReturnType<typeof documentsBatch>>[number];

/** Amounts as issued, positive; the nature says which way a document goes, as the returns write them. */
function documentLine(row: DocumentRow): string {
  return csvRow([
    NATURE[row.kind as DocumentKind],
    row.number,
    toolDate(row.issuedAt),
    row.orderNumber,
    row.buyerName,
    row.invoiceNumber,
    row.invoiceIssuedAt ? toolDate(row.invoiceIssuedAt) : null,
    row.reason,
    placeOfSupply(row.placeOfSupply),
    rupees(row.taxablePaise),
    rupees(row.igstPaise),
    rupees(row.cgstPaise),
    rupees(row.sgstPaise),
    rupees(0),
    rupees(row.totalPaise),
  ]);
}

const SUMMARIES = {
  b2cs: { header: B2CS_HEADER, rows: b2csRows },
  hsn: { header: HSN_HEADER, rows: hsnRows },
  docs: { header: DOCS_HEADER, rows: docsRows },
} as const;

/**
 * One file of the month's GSTR-1 as CSV pieces. The first query runs before anything is yielded, so a
 * database failure is still an error response rather than a cut-off file.
 */
export async function exportGstr1(
  db: Db,
  query: Gstr1Query,
  { batchSize = LIST_BATCH } = {},
): Promise<AsyncGenerator<string>> {
  const month = monthInIndia(query.month);
  if (query.section === "documents") {
    const first = await documentsBatch(db, month, null, batchSize);
    return (async function* pieces() {
      yield `${csvRow(DOCUMENTS_HEADER)}\r\n`;
      let batch = first;
      while (batch.length > 0) {
        yield `${batch.map(documentLine).join("\r\n")}\r\n`;
        const last = batch.at(-1);
        if (batch.length < batchSize || !last) return;
        batch = await documentsBatch(db, month, { kind: last.kind, sequence: last.sequence }, batchSize);
      }
    })();
  }
  const summary = SUMMARIES[query.section];
  const rows = await summary.rows(db, month);
  return (async function* pieces() {
    yield [csvRow(summary.header), ...rows].map((line) => `${line}\r\n`).join("");
  })();
}

export const gstr1FileName = (query: { month: string; section: Gstr1Section }) =>
  `gstr1-${query.month}-${query.section}.csv`;
