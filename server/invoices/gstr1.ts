import { and, asc, eq, gte, lt, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type DocumentKind, documentNumber, financialYear } from "../../common/gst.ts";
import { isIndianState } from "../../common/india.ts";
import { indianWallClock, startOfIndianDay } from "../../common/india-time.ts";
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

const LIST_BATCH = 1_000;

/** The month's bounds in India time, and the one financial year it lies in (April to March). */
export function monthInIndia(month: string) {
  const [year = 0, monthNumber = 0] = month.split("-").map(Number);
  const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, "0")}`;
  const start = startOfIndianDay(`${month}-01`);
  return { start, end: startOfIndianDay(`${next}-01`), financialYear: financialYear(start) };
}

const rupees = (paise: number) => (paise / 100).toFixed(2);
const percent = (rateBp: number) => String(rateBp / 100);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** The offline tool's date format, 05-Nov-2026, in India time. */
function toolDate(moment: Date): string {
  const india = indianWallClock(moment);
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

/**
 * Rule 59(4)(a)(ii) of the CGST Rules: an inter-state invoice to an unregistered buyer worth more than
 * ₹1,00,000 is reported one by one (table 5, B2C large); ₹2,50,000 for invoices before 1 August 2024
 * (notification 12/2024-Central Tax).
 */
export const B2CL_LIMIT_PAISE = 10_000_000;
const B2CL_LIMIT_BEFORE_PAISE = 25_000_000;
const B2CL_LIMIT_FROM = startOfIndianDay("2024-08-01").toISOString();

const originalInvoice = alias(taxDocuments, "original_invoice");

function isLargeInvoice(invoice: typeof taxDocuments | typeof originalInvoice) {
  return sql`(not ${invoice.intraState} and ${invoice.totalPaise} > (case when ${invoice.issuedAt} < ${sql.raw(`'${B2CL_LIMIT_FROM}'`)}::timestamptz then ${sql.raw(String(B2CL_LIMIT_BEFORE_PAISE))} else ${sql.raw(String(B2CL_LIMIT_PAISE))} end))`;
}

/**
 * Whether a document belongs to B2C (large): an invoice by its own value, a credit note by the value of
 * the invoice it reverses (table 9B then, not netted in B2CS). Needs `originalInvoice` left-joined.
 */
const inB2cLarge = sql`(case when ${taxDocuments.kind} = 'credit_note' then coalesce(${isLargeInvoice(originalInvoice)}, false) else ${isLargeInvoice(taxDocuments)} end)`;

/** Nil-rated lines (0 %) are table 8's, not a taxable supply of tables 5, 7 or 9B. */
const taxedLine = sql`${taxDocumentLines.rateBp} > 0`;

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

/**
 * Table 7: B2C (small) supplies by place of supply and rate, net of the month's credit notes; without the
 * B2C (large) invoices and their credit notes, and without nil-rated lines.
 */
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
    .leftJoin(originalInvoice, eq(originalInvoice.id, taxDocuments.invoiceId))
    .where(and(inMonth(month), taxedLine, sql`not ${inB2cLarge}`))
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

/** One document's taxed lines summed by rate, as tables 5 and 9B report them (IGST only: inter-state). */
const perDocumentAndRate = {
  number: taxDocuments.number,
  issuedAt: taxDocuments.issuedAt,
  totalPaise: taxDocuments.totalPaise,
  placeOfSupply: taxDocuments.placeOfSupply,
  rateBp: taxDocumentLines.rateBp,
  taxablePaise: sql<number>`sum(${taxDocumentLines.taxablePaise})::bigint`.mapWith(Number),
  igstPaise: sql<number>`sum(${taxDocumentLines.igstPaise})::bigint`.mapWith(Number),
};

const B2CL_HEADER = [
  "Invoice Number",
  "Invoice date",
  "Invoice Value",
  "Place Of Supply",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Integrated Tax Amount",
  "Cess Amount",
  "E-Commerce GSTIN",
];

/**
 * The taxed lines of the month's B2C (large) invoices, one row per invoice and rate (table 5). Such a
 * supply is inter-state, so its only tax is IGST. The invoice value is the whole invoice's, 0 % lines too.
 */
async function b2clRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select(perDocumentAndRate)
    .from(taxDocumentLines)
    .innerJoin(taxDocuments, eq(taxDocuments.id, taxDocumentLines.documentId))
    .where(and(inMonth(month), eq(taxDocuments.kind, "invoice"), taxedLine, isLargeInvoice(taxDocuments)))
    .groupBy(taxDocuments.id, taxDocumentLines.rateBp)
    .orderBy(asc(taxDocuments.sequence), asc(taxDocumentLines.rateBp));
  return rows.map((row) =>
    csvRow([
      row.number,
      toolDate(row.issuedAt),
      rupees(row.totalPaise),
      placeOfSupply(row.placeOfSupply),
      "",
      percent(row.rateBp),
      rupees(row.taxablePaise),
      rupees(row.igstPaise),
      rupees(0),
      "",
    ]),
  );
}

const CDNUR_HEADER = [
  "UR Type",
  "Note Number",
  "Note Date",
  "Note Type",
  "Place Of Supply",
  "Note Value",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Integrated Tax Amount",
  "Cess Amount",
];

/**
 * Table 9B for unregistered buyers: the month's credit notes against B2C (large) invoices, whichever month
 * the invoice was, one row per note and rate, amounts positive as the tool takes them ("C" says which way).
 */
async function cdnurRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select(perDocumentAndRate)
    .from(taxDocumentLines)
    .innerJoin(taxDocuments, eq(taxDocuments.id, taxDocumentLines.documentId))
    .innerJoin(originalInvoice, eq(originalInvoice.id, taxDocuments.invoiceId))
    .where(
      and(inMonth(month), eq(taxDocuments.kind, "credit_note"), taxedLine, isLargeInvoice(originalInvoice)),
    )
    .groupBy(taxDocuments.id, taxDocumentLines.rateBp)
    .orderBy(asc(taxDocuments.sequence), asc(taxDocumentLines.rateBp));
  return rows.map((row) =>
    csvRow([
      "B2CL",
      row.number,
      toolDate(row.issuedAt),
      "C",
      placeOfSupply(row.placeOfSupply),
      rupees(row.totalPaise),
      "",
      percent(row.rateBp),
      rupees(row.taxablePaise),
      rupees(row.igstPaise),
      rupees(0),
    ]),
  );
}

const EXEMPT_HEADER = [
  "Description",
  "Nil Rated Supplies",
  "Exempted(other than nil rated/non GST supply)",
  "Non-GST Supplies",
];

/**
 * Table 8: the month's nil-rated (0 %) lines, net of its credit notes, inter- and intra-state. Every buyer
 * is unregistered (no buyer GSTIN is taken), so the two rows to registered persons stay at nothing; the
 * shop sells no exempt or non-GST goods. All four rows are always written, as the tool's sheet has them.
 */
async function exemptRows(db: Db, month: ReturnType<typeof monthInIndia>): Promise<string[]> {
  const rows = await db
    .select({ intraState: taxDocuments.intraState, totalPaise: netSum(taxDocumentLines.totalPaise) })
    .from(taxDocumentLines)
    .innerJoin(taxDocuments, eq(taxDocuments.id, taxDocumentLines.documentId))
    .where(and(inMonth(month), eq(taxDocumentLines.rateBp, 0)))
    .groupBy(taxDocuments.intraState);
  const nil = (intraState: boolean) => rows.find((row) => row.intraState === intraState)?.totalPaise ?? 0;
  const lines: [string, number][] = [
    ["Inter-State supplies to registered persons", 0],
    ["Intra-State supplies to registered persons", 0],
    ["Inter-State supplies to unregistered persons", nil(false)],
    ["Intra-State supplies to unregistered persons", nil(true)],
  ];
  return lines.map(([description, paise]) => csvRow([description, rupees(paise), rupees(0), rupees(0)]));
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
  b2cl: { header: B2CL_HEADER, rows: b2clRows },
  cdnur: { header: CDNUR_HEADER, rows: cdnurRows },
  exempt: { header: EXEMPT_HEADER, rows: exemptRows },
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
