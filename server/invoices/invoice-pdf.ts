import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { amountInWords } from "../../common/amount-in-words.ts";
import { formatRate } from "../../common/gst.ts";
import { formatDate } from "../../common/india-time.ts";
import { onFirstUse } from "../first-use.ts";
import type { TaxDocumentView } from "./tax-documents.ts";

const PAGE = { width: 595.28, margin: 40 };
const CONTENT = PAGE.width - 2 * PAGE.margin;
const INK = "#1c1917";
const MUTED = "#57534e";
const RULE = "#d6d3d1";

/**
 * Noto Sans (SIL Open Font License), embedded and subset by pdfkit: the PDF's standard fonts have no rupee
 * sign and print Latin-1 only (docs/decisions/044). Parsed once, on the first document, and shared: parsing
 * the files for each document made every PDF several times slower. pdfkit and fontkit (about 1.5 MB of code
 * with their compression tables) are loaded then too, not when the shop starts: most starts print nothing,
 * and importing them was a tenth of a start's CPU.
 */
const BODY = "NotoSans";
const BOLD = "NotoSans-Bold";
const pdfToolkit = onFirstUse(async () => {
  const [{ default: PDFDocument }, { create }] = await Promise.all([import("pdfkit"), import("fontkit")]);
  const require = createRequire(import.meta.url);
  const parse = (name: string) => {
    const font = create(readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${name}`)));
    if (!("layout" in font)) throw new Error(`${name} is a font collection, not one font.`);
    return font;
  };
  return {
    PDFDocument,
    regular: parse("400Regular/NotoSans_400Regular.ttf"),
    bold: parse("700Bold/NotoSans_700Bold.ttf"),
  };
});

/** Amounts as the columns print them: 1,19,900.50 in Indian grouping, always with paise. */
const indian = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const amount = (paise: number) => indian.format(paise / 100);

/** 24 Nov 2026, the date in India. */
const indianDate = formatDate;

/**
 * What the embedded font prints: Latin with its accents, punctuation and currency signs. Anything else in a
 * name or address (Tamil, Hindi) becomes '?' rather than empty boxes; those scripts need fonts of their own.
 */
const latin1 = (text: string) =>
  text.normalize("NFC").replace(/[^\u0020-\u007e\u00a0-\u024f\u2010-\u2027\u20a0-\u20c0]/g, "?");

type Column = {
  label: string;
  width: number;
  align: "left" | "right";
  cell: (line: Line, index: number) => string;
};
type Line = TaxDocumentView["lines"][number];

/**
 * A tax invoice or credit note as a one-page A4 PDF (more pages when the lines run over), with what rule 46
 * (invoice) and rule 53 (credit note) of the CGST Rules ask: the supplier with address and GSTIN, the number
 * and date, the buyer and delivery address, the place of supply with its state code, per line the
 * description, HSN, quantity, unit, taxable value, rate and tax, the totals, the amount in words, the reverse
 * charge statement and a signature line.
 */
export async function renderTaxDocumentPdf(view: TaxDocumentView): Promise<Buffer> {
  const { PDFDocument, regular, bold } = await pdfToolkit();
  const { document, lines, invoice, orderNumber } = view;
  const credit = document.kind === "credit_note";
  const title = credit ? "Credit Note" : "Tax Invoice";
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    info: { Title: `${title} ${document.number}`, Author: latin1(document.supplier.name) },
  });
  // pdfkit takes a font fontkit has parsed as it takes a file (its font factory checks for layout()).
  doc.registerFont(BODY, regular as unknown as Buffer);
  doc.registerFont(BOLD, bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = PAGE.margin;
  const { supplier, buyer } = document;

  // Heading: the seller on the left, the document's title and number on the right.
  doc
    .fillColor(INK)
    .font(BOLD)
    .fontSize(15)
    .text(latin1(supplier.name), left, PAGE.margin, {
      width: CONTENT * 0.6,
    });
  doc.font(BODY).fontSize(9).fillColor(MUTED);
  for (const line of supplier.lines) doc.text(latin1(line), { width: CONTENT * 0.6 });
  doc.text(`${latin1(supplier.state)} (state code ${supplier.stateCode})`, { width: CONTENT * 0.6 });
  doc
    .fillColor(INK)
    .font(BOLD)
    .text(`GSTIN: ${supplier.gstin ?? ""}`, { width: CONTENT * 0.6 });
  // FSSAI requires a food business's licence number on its invoices (the shop sells Badam Mix and other food).
  if (supplier.fssaiLicence) doc.text(`FSSAI Lic. No.: ${supplier.fssaiLicence}`, { width: CONTENT * 0.6 });
  if (supplier.phone)
    doc
      .font(BODY)
      .fillColor(MUTED)
      .text(`Phone: ${latin1(supplier.phone)}`);
  const afterSupplier = doc.y;

  const rightX = left + CONTENT * 0.6;
  const rightWidth = CONTENT * 0.4;
  doc.font(BOLD).fontSize(18).fillColor("#14532d").text(title, rightX, PAGE.margin, {
    width: rightWidth,
    align: "right",
  });
  doc.font(BODY).fontSize(9).fillColor(INK);
  const facts: [string, string][] = [
    [credit ? "Credit note no." : "Invoice no.", document.number],
    [credit ? "Credit note date" : "Invoice date", indianDate(document.issuedAt)],
    ...(document.suppliedAt
      ? ([["Date of supply", indianDate(document.suppliedAt)]] as [string, string][])
      : []),
    ["Order no.", orderNumber],
    ...(credit && invoice
      ? ([
          ["Against invoice", invoice.number],
          ["Invoice date", indianDate(invoice.issuedAt)],
          ["Reason", document.reason ?? ""],
        ] as [string, string][])
      : []),
  ];
  const valueWidth = 100;
  for (const [label, value] of facts) {
    const rowY = doc.y + 1;
    doc
      .font(BODY)
      .fillColor(MUTED)
      .text(`${label}:`, rightX, rowY, {
        width: rightWidth - valueWidth - 6,
        align: "right",
      });
    doc
      .font(BOLD)
      .fillColor(INK)
      .text(latin1(value), left + CONTENT - valueWidth, rowY, {
        width: valueWidth,
        align: "right",
      });
  }

  // The buyer and the place of supply.
  let y = Math.max(afterSupplier, doc.y) + 14;
  doc
    .moveTo(left, y)
    .lineTo(left + CONTENT, y)
    .strokeColor(RULE)
    .lineWidth(0.8)
    .stroke();
  y += 8;
  doc.font(BOLD).fontSize(9).fillColor(MUTED).text("Billed and shipped to", left, y);
  doc
    .font(BOLD)
    .fillColor(INK)
    .text(latin1(buyer.name), { width: CONTENT * 0.6 });
  doc.font(BODY);
  for (const line of buyer.lines) doc.text(latin1(line), { width: CONTENT * 0.6 });
  doc.text(`${latin1(buyer.state)}${buyer.stateCode ? ` (state code ${buyer.stateCode})` : ""}`);
  if (buyer.phone) doc.text(`Mobile: ${latin1(buyer.phone)}`);
  const afterBuyer = doc.y;
  doc.font(BOLD).fillColor(MUTED).text("Place of supply", rightX, y, { width: rightWidth, align: "right" });
  doc
    .font(BOLD)
    .fillColor(INK)
    .text(`${latin1(document.placeOfSupply)} (${buyer.stateCode})`, rightX, doc.y, {
      width: rightWidth,
      align: "right",
    });
  doc
    .font(BODY)
    .fillColor(MUTED)
    .text(document.intraState ? "Within the state: CGST + SGST" : "Between states: IGST", rightX, doc.y, {
      width: rightWidth,
      align: "right",
    });

  // The lines.
  y = Math.max(afterBuyer, doc.y) + 14;
  const taxColumns: Column[] = document.intraState
    ? [
        { label: "CGST", width: 52, align: "right", cell: (line) => amount(line.cgstPaise) },
        { label: "SGST", width: 52, align: "right", cell: (line) => amount(line.sgstPaise) },
      ]
    : [{ label: "IGST", width: 60, align: "right", cell: (line) => amount(line.igstPaise) }];
  const fixed: Column[] = [
    { label: "#", width: 16, align: "left", cell: (_line, index) => String(index + 1) },
    { label: "Description", width: 0, align: "left", cell: (line) => latin1(line.description) },
    { label: "HSN/SAC", width: 50, align: "left", cell: (line) => line.hsn ?? "" },
    { label: "Qty", width: 26, align: "right", cell: (line) => String(line.quantity) },
    { label: "Unit", width: 26, align: "left", cell: (line) => line.unit },
    { label: "Taxable value", width: 62, align: "right", cell: (line) => amount(line.taxablePaise) },
    { label: "Rate", width: 30, align: "right", cell: (line) => formatRate(line.rateBp) },
    ...taxColumns,
    { label: "Total", width: 60, align: "right", cell: (line) => amount(line.totalPaise) },
  ];
  const used = fixed.reduce((sum, column) => sum + column.width, 0);
  const columns = fixed.map((column) =>
    column.label === "Description" ? { ...column, width: CONTENT - used } : column,
  );
  const gap = 4;
  const drawRow = (cells: string[], font: string, background?: string) => {
    doc.font(font).fontSize(8.5);
    const height =
      Math.max(
        ...cells.map((cell, index) =>
          doc.heightOfString(cell, { width: (columns[index]?.width ?? 0) - gap }),
        ),
      ) + 8;
    if (y + height > doc.page.height - PAGE.margin - 150) {
      doc.addPage();
      y = PAGE.margin;
    }
    if (background) doc.rect(left, y, CONTENT, height).fill(background);
    let x = left;
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (!column) return;
      doc.fillColor(INK).text(cell, x + gap / 2, y + 4, { width: column.width - gap, align: column.align });
      x += column.width;
    });
    y += height;
    doc
      .moveTo(left, y)
      .lineTo(left + CONTENT, y)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };
  doc
    .fontSize(9)
    .text("Amounts in rupees (₹); prices include GST.", left, y, { width: CONTENT, align: "right" });
  y = doc.y + 4;
  drawRow(
    columns.map((column) => column.label),
    BOLD,
    "#f5f5f4",
  );
  lines.forEach((line, index) => {
    drawRow(
      columns.map((column) => column.cell(line, index)),
      BODY,
    );
  });
  const totals = document;
  drawRow(
    columns.map((column) => {
      if (column.label === "Description") return "Total";
      if (column.label === "Taxable value") return amount(totals.taxablePaise);
      if (column.label === "CGST") return amount(totals.cgstPaise);
      if (column.label === "SGST") return amount(totals.sgstPaise);
      if (column.label === "IGST") return amount(totals.igstPaise);
      if (column.label === "Total") return amount(totals.totalPaise);
      return "";
    }),
    BOLD,
  );

  // The summary, the amount in words, the statements and the signature.
  y += 10;
  const summary: [string, number][] = [
    ["Taxable value", totals.taxablePaise],
    ...(document.intraState
      ? ([
          ["CGST", totals.cgstPaise],
          ["SGST", totals.sgstPaise],
        ] as [string, number][])
      : ([["IGST", totals.igstPaise]] as [string, number][])),
    [credit ? "Credit note total" : "Invoice total", totals.totalPaise],
  ];
  const discount = lines.reduce((sum, line) => sum + line.discountPaise, 0);
  for (const [label, value] of summary) {
    const strong = label.endsWith("total");
    doc
      .font(strong ? BOLD : BODY)
      .fontSize(strong ? 10.5 : 9)
      .fillColor(INK)
      .text(label, left + CONTENT - 220, y, { width: 130, align: "left" })
      .text(`₹${amount(value)}`, left + CONTENT - 90, y, { width: 90, align: "right" });
    y = doc.y + 3;
  }
  doc.x = left;
  doc.y = y + 6;
  doc
    .font(BOLD)
    .fontSize(9)
    .text(`Amount in words: ${amountInWords(totals.totalPaise)}`, left, doc.y, { width: CONTENT });
  doc.moveDown(0.5).font(BODY).fillColor(INK);
  if (discount > 0) {
    doc.text(
      `A discount of ₹${amount(discount)} is spread over the goods in proportion to their value; the taxable values are after it.`,
      { width: CONTENT },
    );
  }
  doc.text("Whether tax is payable on reverse charge: No", { width: CONTENT });
  if (credit)
    doc.text(`This credit note reverses invoice ${invoice?.number ?? ""} in full.`, { width: CONTENT });

  const signatureY = Math.max(doc.y + 40, y + 80);
  doc
    .font(BOLD)
    .text(`For ${latin1(supplier.name)}`, left + CONTENT - 220, signatureY, { width: 220, align: "right" });
  doc
    .moveTo(left + CONTENT - 160, signatureY + 44)
    .lineTo(left + CONTENT, signatureY + 44)
    .strokeColor(INK)
    .lineWidth(0.6)
    .stroke();
  doc
    .font(BODY)
    .fontSize(8.5)
    .text("Authorised signatory", left + CONTENT - 220, signatureY + 48, { width: 220, align: "right" });
  doc
    .fillColor(MUTED)
    .fontSize(7.5)
    .text("This is a computer-generated document.", left, signatureY + 48, { width: CONTENT - 230 });

  doc.end();
  return done;
}
