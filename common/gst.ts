import { indianWallClock } from "./india-time.ts";
import type { Paise } from "./money.ts";

/**
 * GST on a tax invoice, worked back from prices that include it (docs/decisions/037). Pure and in integer
 * paise: the server issues invoices and credit notes with it, and the tests check it for any cart.
 *
 * Rates are in basis points (1800 = 18 %), so a rate the owner adds later (0.25 %, 1.5 %) is still an
 * integer and every step stays exact.
 */

export type RateBp = number;

/** SAC of the delivery charge: "Postal and courier services". */
export const SHIPPING_SAC = "9968";

/** A line as charged: its price includes GST; the discount is spread over lines by the module. */
export type GoodsLineInput = {
  description: string;
  /** HSN code; null when the owner has not set one (allowed on B2C invoices below ₹5 crore turnover). */
  hsn: string | null;
  quantity: number;
  /** Unit quantity code of the GST returns: NOS for single products, SET for combos. */
  unit: string;
  /** Unit price × quantity, before the discount, GST included. */
  grossPaise: Paise;
  rateBp: RateBp;
};

export type TaxLine = {
  description: string;
  hsn: string | null;
  quantity: number;
  unit: string;
  kind: "goods" | "shipping";
  grossPaise: Paise;
  /** This line's share of the order's discount. */
  discountPaise: Paise;
  rateBp: RateBp;
  /** What the line is worth without GST. */
  taxablePaise: Paise;
  cgstPaise: Paise;
  sgstPaise: Paise;
  igstPaise: Paise;
  /** What the buyer pays for the line: taxable value plus its GST. */
  totalPaise: Paise;
};

export type TaxTotals = {
  taxablePaise: Paise;
  cgstPaise: Paise;
  sgstPaise: Paise;
  igstPaise: Paise;
  totalPaise: Paise;
};

export type TaxBreakdown = { lines: TaxLine[]; totals: TaxTotals; intraState: boolean };

/**
 * Spreads a discount over amounts in proportion to each, rounded down to the paisa, the remainder on the
 * last. When the remainder would take the last amount below zero (a discount of nearly everything over a
 * tiny last line), the excess moves one paisa at a time to the earlier lines that still have room: the
 * shares always sum to the discount and no share exceeds its amount.
 */
export function spreadDiscount(amounts: readonly Paise[], discount: Paise): Paise[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  if (discount < 0 || discount > total) {
    throw new RangeError(`A discount of ${discount} paise cannot be spread over ${total} paise.`);
  }
  if (amounts.length === 0 || discount === 0) return amounts.map(() => 0);
  const shares = amounts.map((amount) => Math.floor((discount * amount) / total));
  const last = amounts.length - 1;
  shares[last] = discount - shares.slice(0, last).reduce((sum, share) => sum + share, 0);
  let excess = (shares[last] ?? 0) - (amounts[last] ?? 0);
  if (excess > 0) {
    shares[last] = amounts[last] ?? 0;
    for (let index = last - 1; index >= 0 && excess > 0; index--) {
      const room = (amounts[index] ?? 0) - (shares[index] ?? 0);
      const moved = Math.min(room, excess);
      shares[index] = (shares[index] ?? 0) + moved;
      excess -= moved;
    }
  }
  return shares;
}

/**
 * A value that includes GST split into its taxable value and tax. Within the state the tax is CGST and
 * SGST at half the rate each, always equal (the returns expect them so); each half is rounded to the
 * paisa from the exact taxable value and the taxable value is what is left, so the three add up to the
 * value exactly and each tax is within a paisa of its rate times the taxable value.
 */
export function splitInclusive(
  valuePaise: Paise,
  rateBp: RateBp,
  intraState: boolean,
): Pick<TaxLine, "taxablePaise" | "cgstPaise" | "sgstPaise" | "igstPaise"> {
  if (intraState) {
    const half = Math.round((valuePaise * rateBp) / (2 * (10_000 + rateBp)));
    return { taxablePaise: valuePaise - 2 * half, cgstPaise: half, sgstPaise: half, igstPaise: 0 };
  }
  const igst = Math.round((valuePaise * rateBp) / (10_000 + rateBp));
  return { taxablePaise: valuePaise - igst, cgstPaise: 0, sgstPaise: 0, igstPaise: igst };
}

/**
 * The delivery charge follows the goods it delivers (a composite supply whose principal supply is the
 * goods): taxed at the highest rate among the order's goods, so a mixed order never under-pays.
 */
export function shippingRate(lines: readonly Pick<GoodsLineInput, "rateBp">[]): RateBp {
  return lines.reduce((highest, line) => Math.max(highest, line.rateBp), 0);
}

/**
 * The order's lines with their tax: the discount spread over the goods, the delivery charge (never
 * discounted) as its own line under SAC 9968, CGST + SGST when the place of supply is the shop's state
 * and IGST otherwise. The lines' totals sum to subtotal - discount + shipping, the order's total.
 */
export function computeTax(input: {
  lines: readonly GoodsLineInput[];
  discountPaise: Paise;
  shippingPaise: Paise;
  intraState: boolean;
}): TaxBreakdown {
  const { intraState } = input;
  const shares = spreadDiscount(
    input.lines.map((line) => line.grossPaise),
    input.discountPaise,
  );
  const lines: TaxLine[] = input.lines.map((line, index) => {
    const discountPaise = shares[index] ?? 0;
    const totalPaise = line.grossPaise - discountPaise;
    return {
      description: line.description,
      hsn: line.hsn,
      quantity: line.quantity,
      unit: line.unit,
      kind: "goods",
      grossPaise: line.grossPaise,
      discountPaise,
      rateBp: line.rateBp,
      ...splitInclusive(totalPaise, line.rateBp, intraState),
      totalPaise,
    };
  });
  if (input.shippingPaise > 0) {
    const rateBp = shippingRate(input.lines);
    lines.push({
      description: "Delivery charges",
      hsn: SHIPPING_SAC,
      quantity: 1,
      unit: "OTH",
      kind: "shipping",
      grossPaise: input.shippingPaise,
      discountPaise: 0,
      rateBp,
      ...splitInclusive(input.shippingPaise, rateBp, intraState),
      totalPaise: input.shippingPaise,
    });
  }
  return { lines, totals: sumTax(lines), intraState };
}

export function sumTax(lines: readonly TaxTotals[]): TaxTotals {
  const totals: TaxTotals = { taxablePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
  for (const line of lines) {
    totals.taxablePaise += line.taxablePaise;
    totals.cgstPaise += line.cgstPaise;
    totals.sgstPaise += line.sgstPaise;
    totals.igstPaise += line.igstPaise;
    totals.totalPaise += line.totalPaise;
  }
  return totals;
}

/** 18 % from 1800 basis points; 0.25 % from 25. */
export const formatRate = (rateBp: RateBp) => `${Number((rateBp / 100).toFixed(2))}%`;

/** An HSN code as the returns take it: 4, 6 or 8 digits. */
export const HSN_PATTERN = /^(\d{4}|\d{6}|\d{8})$/;

/**
 * The financial year (April to March, India time) a moment falls in, as invoices name it: "26-27" for
 * 1 April 2026 to 31 March 2027.
 */
export function financialYear(at: Date): string {
  const india = indianWallClock(at);
  const year = india.getUTCFullYear();
  const start = india.getUTCMonth() >= 3 ? year : year - 1;
  const two = (value: number) => String(value % 100).padStart(2, "0");
  return `${two(start)}-${two(start + 1)}`;
}

/** Invoice and credit-note numbers: at most 16 characters, as GST rules allow. */
export const DOCUMENT_PREFIXES = { invoice: "PN", credit_note: "CN" } as const;
export type DocumentKind = keyof typeof DOCUMENT_PREFIXES;

/** PN/26-27/000123: six digits, seven past 999999 (still 16 characters); never more. */
export function documentNumber(kind: DocumentKind, year: string, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 9_999_999) {
    throw new RangeError(`Document sequence ${sequence} is out of range.`);
  }
  return `${DOCUMENT_PREFIXES[kind]}/${year}/${String(sequence).padStart(6, "0")}`;
}
