import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shippingFor } from "./cart.ts";
import { discountAmount } from "./discount.ts";
import {
  computeTax,
  documentNumber,
  financialYear,
  type GoodsLineInput,
  HSN_PATTERN,
  shippingRate,
  splitInclusive,
  spreadDiscount,
} from "./gst.ts";

const line = (grossPaise: number, rateBp = 1800, quantity = 1): GoodsLineInput => ({
  description: "Bath Powder",
  hsn: "330730",
  quantity,
  unit: "NOS",
  grossPaise,
  rateBp,
});

describe("spreading the discount", () => {
  it("gives each line its share rounded down and the remainder to the last", () => {
    // 20 % of ₹1,497 rounds to ₹299; 29,900 over 49,900 / 49,900 / 49,900.
    expect(spreadDiscount([49_900, 49_900, 49_900], 29_900)).toEqual([9_966, 9_966, 9_968]);
    expect(spreadDiscount([100, 200], 0)).toEqual([0, 0]);
    expect(spreadDiscount([], 0)).toEqual([]);
  });

  it("never takes the last line below zero, moving the excess to earlier lines", () => {
    // Floors leave 2 paise of remainder that the 1-paisa last line cannot carry.
    expect(spreadDiscount([333, 333, 1], 666)).toEqual([332, 333, 1]);
  });

  it("refuses a discount larger than the amounts", () => {
    expect(() => spreadDiscount([100], 101)).toThrow(RangeError);
  });
});

describe("tax worked back from prices that include it", () => {
  it("₹599 at 18 % within the state: ₹507.62 taxable, ₹45.69 CGST and SGST", () => {
    expect(splitInclusive(59_900, 1800, true)).toEqual({
      taxablePaise: 50_762,
      cgstPaise: 4_569,
      sgstPaise: 4_569,
      igstPaise: 0,
    });
  });

  it("₹599 at 18 % to another state: IGST ₹91.37", () => {
    expect(splitInclusive(59_900, 1800, false)).toEqual({
      taxablePaise: 50_763,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 9_137,
    });
  });

  it("0 % leaves the whole value taxable", () => {
    expect(splitInclusive(12_345, 0, true).taxablePaise).toBe(12_345);
  });

  it("taxes shipping as its own line at the highest rate of the goods, undiscounted", () => {
    const tax = computeTax({
      lines: [line(29_900, 500), line(19_900, 1800)],
      discountPaise: 10_000,
      shippingPaise: 4_900,
      intraState: false,
    });
    const shipping = tax.lines.at(-1);
    expect(shipping).toMatchObject({ kind: "shipping", hsn: "9968", rateBp: 1800, totalPaise: 4_900 });
    expect(shipping?.discountPaise).toBe(0);
    expect(tax.totals.totalPaise).toBe(29_900 + 19_900 - 10_000 + 4_900);
    expect(shippingRate([])).toBe(0);
  });
});

describe("numbers and years", () => {
  it("the financial year turns on 1 April, India time", () => {
    expect(financialYear(new Date("2026-03-31T18:29:59Z"))).toBe("25-26");
    expect(financialYear(new Date("2026-03-31T18:30:00Z"))).toBe("26-27");
    expect(financialYear(new Date("2027-01-15T00:00:00Z"))).toBe("26-27");
    expect(financialYear(new Date("2099-12-31T00:00:00Z"))).toBe("99-00");
  });

  it("numbers are at most 16 characters", () => {
    expect(documentNumber("invoice", "26-27", 123)).toBe("PN/26-27/000123");
    expect(documentNumber("credit_note", "26-27", 1)).toBe("CN/26-27/000001");
    expect(documentNumber("invoice", "26-27", 9_999_999)).toHaveLength(16);
    expect(() => documentNumber("invoice", "26-27", 10_000_000)).toThrow(RangeError);
    expect(() => documentNumber("invoice", "26-27", 0)).toThrow(RangeError);
  });

  it("HSN codes are 4, 6 or 8 digits", () => {
    for (const good of ["3305", "330590", "33059011"]) expect(HSN_PATTERN.test(good)).toBe(true);
    for (const bad of ["330", "33059", "3305901", "330590111", "33O5", ""])
      expect(HSN_PATTERN.test(bad)).toBe(false);
  });
});

/** Any cart the shop could take: 1-12 lines, ₹1 to ₹50,000 a unit, 1-99 of each, the rates in use. */
const carts = fc.array(
  fc.record({
    unit: fc.integer({ min: 100, max: 5_000_000 }),
    quantity: fc.integer({ min: 1, max: 99 }),
    rateBp: fc.constantFrom(0, 25, 300, 500, 1200, 1800, 2800, 4000),
  }),
  { minLength: 1, maxLength: 12 },
);
/** Any code: a percent 1-90 or a flat amount, with or without a minimum. */
const codes = fc.option(
  fc.oneof(
    fc.record({
      percent: fc.integer({ min: 1, max: 90 }),
      minAmountPaise: fc.integer({ min: 0, max: 200_000 }),
    }),
    fc.record({
      percent: fc.constant(0),
      amountOffPaise: fc.integer({ min: 1, max: 10_000_000 }),
      minAmountPaise: fc.integer({ min: 0, max: 200_000 }),
    }),
  ),
);

describe("for any cart and any code", () => {
  it("lines sum to the order's total, none negative, each tax within a paisa of its rate", () => {
    fc.assert(
      fc.property(carts, codes, fc.boolean(), (cart, code, intraState) => {
        const lines = cart.map((item) => line(item.unit * item.quantity, item.rateBp, item.quantity));
        const subtotal = lines.reduce((sum, l) => sum + l.grossPaise, 0);
        const discountPaise = code ? discountAmount(subtotal, code) : 0;
        const shippingPaise = shippingFor(
          subtotal - discountPaise,
          { freeShippingMinPaise: 49_900, shippingFeePaise: 4_900, freeShippingBasis: "after_discount" },
          true,
        );
        const tax = computeTax({ lines, discountPaise, shippingPaise, intraState });
        const orderTotal = subtotal - discountPaise + shippingPaise;

        expect(tax.totals.totalPaise).toBe(orderTotal);
        expect(tax.lines.reduce((sum, l) => sum + l.discountPaise, 0)).toBe(discountPaise);
        for (const taxed of tax.lines) {
          for (const amount of [taxed.taxablePaise, taxed.cgstPaise, taxed.sgstPaise, taxed.igstPaise]) {
            expect(Number.isInteger(amount)).toBe(true);
            expect(amount).toBeGreaterThanOrEqual(0);
          }
          expect(taxed.discountPaise).toBeLessThanOrEqual(taxed.grossPaise);
          expect(taxed.taxablePaise + taxed.cgstPaise + taxed.sgstPaise + taxed.igstPaise).toBe(
            taxed.totalPaise,
          );
          const exact = (taxed.taxablePaise * taxed.rateBp) / 10_000;
          if (intraState) {
            expect(taxed.igstPaise).toBe(0);
            expect(taxed.cgstPaise).toBe(taxed.sgstPaise);
            expect(Math.abs(taxed.cgstPaise - exact / 2)).toBeLessThanOrEqual(1);
          } else {
            expect(taxed.cgstPaise + taxed.sgstPaise).toBe(0);
            expect(Math.abs(taxed.igstPaise - exact)).toBeLessThanOrEqual(1);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("the spread is proportional to within the lines' count in paise, and the remainder is on the last line", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (amounts, wanted) => {
          const total = amounts.reduce((a, b) => a + b, 0);
          const discount = Math.min(wanted, total);
          const shares = spreadDiscount(amounts, discount);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(discount);
          shares.forEach((share, i) => {
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(amounts[i] ?? 0);
            expect(Math.abs(share - (discount * (amounts[i] ?? 0)) / total)).toBeLessThan(amounts.length);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
