import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { computeTax, type DocumentKind, type GoodsLineInput, type TaxLine } from "../../common/gst.ts";
import { formatMobile, isIndianState } from "../../common/india.ts";
import { stateCodeOf } from "../../common/schemas/shop.ts";
import type { Db, Tx } from "../db/client.ts";
import {
  combos,
  type DocumentParty,
  type OrderRow,
  orderLines,
  orders,
  products,
  taxDocumentLines,
  taxDocuments,
} from "../db/schema.ts";
import { log } from "../log.ts";
import { getShopDetails } from "../shop/shop.data.ts";
import { takeDocumentNumber } from "./document-numbers.ts";

export type TaxDocumentRow = typeof taxDocuments.$inferSelect;
export type TaxDocumentLineRow = typeof taxDocumentLines.$inferSelect;
type Executor = Pick<Db, "select">;

/**
 * The seller as an invoice names it, from the shop's details; null while the registered address or the
 * GSTIN is missing: a shop not registered for GST issues no tax invoice (docs/decisions/038).
 */
async function supplierParty(tx: Executor): Promise<DocumentParty | null> {
  const shop = await getShopDetails(tx);
  if (!shop.gstin || !shop.address) return null;
  const { line1, line2, city, pin, state, stateCode } = shop.address;
  return {
    name: shop.legalName,
    lines: [line1, line2, `${city} ${pin}`].filter(Boolean),
    state,
    stateCode,
    gstin: shop.gstin,
    phone: shop.phone,
    fssaiLicence: shop.fssaiLicence,
  };
}

/**
 * "Tambaram, Chengalpattu district 600045": the district (from the PIN look-up) when the order has one and
 * it says more than the city, as the order pages write it; the state follows on its own line.
 */
function buyerPlace(order: OrderRow): string {
  const district = order.shipDistrict?.trim();
  const named = district && district.toLowerCase() !== order.shipCity.trim().toLowerCase();
  return named
    ? `${order.shipCity}, ${district} district ${order.shipPin}`
    : `${order.shipCity} ${order.shipPin}`;
}

function buyerParty(order: OrderRow): DocumentParty {
  return {
    name: order.shipName,
    lines: [order.shipLine1, order.shipLine2, buyerPlace(order)].filter(Boolean),
    state: order.shipState,
    stateCode: isIndianState(order.shipState) ? stateCodeOf(order.shipState) : "",
    gstin: null,
    phone: formatMobile(order.shipPhone),
  };
}

/**
 * The order's lines with the HSN and rate of today (the time of supply is the invoice's). A combo is a mixed
 * supply: it takes the highest rate among its products, and that product's HSN (docs/decisions/037).
 */
async function goodsLines(tx: Executor, orderId: string): Promise<GoodsLineInput[]> {
  const lines = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.position));
  const comboIds = lines.filter((line) => line.kind === "combo").map((line) => line.itemId);
  const comboRows = comboIds.length
    ? await tx
        .select({ id: combos.id, productSlugs: combos.productSlugs })
        .from(combos)
        .where(inArray(combos.id, comboIds))
    : [];
  const slugs = new Set(lines.filter((line) => line.kind === "product").map((line) => line.itemId));
  for (const combo of comboRows) for (const slug of combo.productSlugs) slugs.add(slug);
  const productRows = slugs.size
    ? await tx
        .select({
          slug: products.slug,
          name: products.name,
          hsnCode: products.hsnCode,
          gstRateBp: products.gstRateBp,
        })
        .from(products)
        .where(inArray(products.slug, [...slugs]))
    : [];
  const productBySlug = new Map(productRows.map((row) => [row.slug, row]));

  return lines.map((line) => {
    const base = { quantity: line.quantity, grossPaise: line.lineTotalPaise };
    if (line.kind === "product") {
      const product = productBySlug.get(line.itemId);
      if (!product) throw new Error(`Order line ${line.itemId} names no product.`);
      return {
        ...base,
        description: line.name,
        hsn: product.hsnCode,
        unit: "NOS",
        rateBp: product.gstRateBp,
      };
    }
    const combo = comboRows.find((row) => row.id === line.itemId);
    const parts = (combo?.productSlugs ?? []).flatMap((slug) => productBySlug.get(slug) ?? []);
    const highest = parts.reduce<(typeof parts)[number] | null>(
      (best, part) => (!best || part.gstRateBp > best.gstRateBp ? part : best),
      null,
    );
    if (!highest) throw new Error(`Combo ${line.itemId} has no products to take its rate from.`);
    return {
      ...base,
      description: `${line.name} (${parts.map((part) => part.name).join(", ")})`,
      hsn: highest.hsnCode,
      unit: "SET",
      rateBp: highest.gstRateBp,
    };
  });
}

async function insertDocument(
  tx: Tx,
  values: Omit<typeof taxDocuments.$inferInsert, "number" | "financialYear" | "sequence" | "kind"> & {
    kind: DocumentKind;
  },
  lines: readonly Omit<TaxLine, never>[],
): Promise<TaxDocumentRow> {
  const taken = await takeDocumentNumber(tx, values.kind, values.issuedAt);
  const [document] = await tx
    .insert(taxDocuments)
    .values({ ...values, ...taken })
    .returning();
  if (!document) throw new Error("The tax document was not written.");
  await tx.insert(taxDocumentLines).values(
    lines.map((line, position) => ({
      documentId: document.id,
      position,
      kind: line.kind,
      description: line.description,
      hsn: line.hsn,
      quantity: line.quantity,
      unit: line.unit,
      grossPaise: line.grossPaise,
      discountPaise: line.discountPaise,
      rateBp: line.rateBp,
      taxablePaise: line.taxablePaise,
      cgstPaise: line.cgstPaise,
      sgstPaise: line.sgstPaise,
      igstPaise: line.igstPaise,
      totalPaise: line.totalPaise,
    })),
  );
  return document;
}

/**
 * Issues the order's tax invoice, in the transaction that confirms the order (which holds the order's row
 * lock): once per order, numbered in the financial year of `now`. Returns null, and logs why, when the
 * shop's details do not allow a tax invoice yet. `suppliedAt`: an invoice issued after the goods were
 * supplied (server/invoices/missed-invoices.ts) records when.
 */
export async function issueInvoice(
  tx: Tx,
  order: OrderRow,
  now: Date,
  { suppliedAt = null }: { suppliedAt?: Date | null } = {},
): Promise<TaxDocumentRow | null> {
  const existing = await standingInvoice(tx, order.id);
  if (existing) return existing;
  const supplier = await supplierParty(tx);
  if (!supplier) {
    log.warn(
      { order: order.number },
      "no tax invoice issued: the shop's GSTIN or registered address is not set (admin, Shop details)",
    );
    return null;
  }
  const intraState = order.shipState === supplier.state;
  const tax = computeTax({
    lines: await goodsLines(tx, order.id),
    // The prepaid incentive is a discount on the goods too, shared over the lines as the code's is.
    discountPaise: order.discountPaise + order.prepaidDiscountPaise,
    shippingPaise: order.shippingPaise,
    intraState,
  });
  if (tax.totals.totalPaise !== order.totalPaise) {
    throw new Error(
      `Invoice for ${order.number} adds up to ${tax.totals.totalPaise}, not ${order.totalPaise}.`,
    );
  }
  return insertDocument(
    tx,
    {
      kind: "invoice",
      orderId: order.id,
      invoiceId: null,
      reason: null,
      issuedAt: now,
      suppliedAt,
      supplier,
      buyer: buyerParty(order),
      placeOfSupply: order.shipState,
      intraState,
      ...tax.totals,
    },
    tax.lines,
  );
}

/**
 * The order's invoice that stands: the last one no credit note reverses. An order edited after it was invoiced
 * has its earlier invoices reversed and a new one issued (docs/decisions/087); null when none stands.
 */
export async function standingInvoice(db: Executor, orderId: string): Promise<TaxDocumentRow | null> {
  const reversal = alias(taxDocuments, "reversal");
  const [row] = await db
    .select({ invoice: taxDocuments })
    .from(taxDocuments)
    .leftJoin(reversal, eq(reversal.invoiceId, taxDocuments.id))
    .where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.kind, "invoice"), isNull(reversal.id)))
    .orderBy(desc(taxDocuments.issuedAt), desc(taxDocuments.number))
    .limit(1);
  return row?.invoice ?? null;
}

/**
 * Issues the credit note that reverses the order's standing invoice in full, when an invoiced order is
 * cancelled, comes back, or is changed by staff: in its own series, naming the invoice, with the invoice's
 * lines and tax. Nothing when no invoice stands (never invoiced, or already reversed).
 */
export async function issueCreditNote(
  tx: Tx,
  order: OrderRow,
  reason: string,
  now: Date,
): Promise<TaxDocumentRow | null> {
  const invoice = await standingInvoice(tx, order.id);
  if (!invoice) return null;
  const lines = await tx
    .select()
    .from(taxDocumentLines)
    .where(eq(taxDocumentLines.documentId, invoice.id))
    .orderBy(asc(taxDocumentLines.position));
  return insertDocument(
    tx,
    {
      kind: "credit_note",
      orderId: order.id,
      invoiceId: invoice.id,
      reason,
      issuedAt: now,
      // The seller's details as they are now, if still complete; else as the invoice named them.
      supplier: (await supplierParty(tx)) ?? invoice.supplier,
      buyer: invoice.buyer,
      placeOfSupply: invoice.placeOfSupply,
      intraState: invoice.intraState,
      taxablePaise: invoice.taxablePaise,
      cgstPaise: invoice.cgstPaise,
      sgstPaise: invoice.sgstPaise,
      igstPaise: invoice.igstPaise,
      totalPaise: invoice.totalPaise,
    },
    lines,
  );
}

/**
 * An order's invoice or credit note with its lines, and the invoice a credit note refers to: the latest of its
 * kind (an order changed after it was invoiced has the invoice that stands now, and the credit note of the one
 * before).
 */
export async function findTaxDocument(db: Executor, orderId: string, kind: DocumentKind) {
  const [document] = await db
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.kind, kind)))
    .orderBy(desc(taxDocuments.issuedAt), desc(taxDocuments.number))
    .limit(1);
  if (!document) return null;
  const lines = await db
    .select()
    .from(taxDocumentLines)
    .where(eq(taxDocumentLines.documentId, document.id))
    .orderBy(asc(taxDocumentLines.position));
  const [invoice] = document.invoiceId
    ? await db
        .select({ number: taxDocuments.number, issuedAt: taxDocuments.issuedAt })
        .from(taxDocuments)
        .where(eq(taxDocuments.id, document.invoiceId))
    : [];
  const [order] = await db.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId));
  return { document, lines, invoice: invoice ?? null, orderNumber: order?.number ?? "" };
}

export type TaxDocumentView = NonNullable<Awaited<ReturnType<typeof findTaxDocument>>>;

/** Which documents an order has, by number, for its pages' download links. */
export async function documentNumbersOf(db: Executor, orderId: string) {
  const rows = await db
    .select({ kind: taxDocuments.kind, number: taxDocuments.number })
    .from(taxDocuments)
    .where(eq(taxDocuments.orderId, orderId))
    // The latest of each kind first, as findTaxDocument answers a download.
    .orderBy(desc(taxDocuments.issuedAt), desc(taxDocuments.number));
  return {
    invoice: rows.find((row) => row.kind === "invoice")?.number ?? null,
    creditNote: rows.find((row) => row.kind === "credit_note")?.number ?? null,
  };
}

/** The file name a download gets: PN-26-27-000123.pdf. */
export const documentFileName = (number: string) => `${number.replaceAll("/", "-")}.pdf`;
