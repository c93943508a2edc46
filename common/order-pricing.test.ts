import { describe, expect, it } from "vitest";
import { type ResolvedLine, type ShippingRule, summarizeCart } from "./cart.ts";
import { discountProblemOf, type PricedCode } from "./discount.ts";
import { orderPricingOf } from "./order-pricing.ts";

/** Checkout and Place order price a cart with the cart's own arithmetic, given the shipping rule. */
const shipping: ShippingRule = {
  freeShippingMinPaise: 49_900,
  shippingFeePaise: 4_900,
  freeShippingBasis: "after_discount",
};
const item = (overrides: Partial<ResolvedLine> = {}): ResolvedLine => ({
  id: "bath-powder",
  kind: "product",
  quantity: 1,
  name: "Bath Powder",
  href: "/product/bath-powder",
  image: null,
  imageKey: "bath-powder-1",
  unitPricePaise: 59_900,
  addedPricePaise: 59_900,
  availability: "available",
  stock: 10,
  perishable: false,
  ...overrides,
});
const glow20: PricedCode = {
  code: "GLOW20",
  percent: 20,
  amountOffPaise: 0,
  description: "Flat 20% off all products",
  minAmountPaise: 0,
  active: true,
  problem: null,
};
const standing = { active: true, unavailable: null, spent: false, usesPerCustomer: 1 };
const priceOrder = (lines: ResolvedLine[], discount: PricedCode | null = null, rule = shipping) =>
  orderPricingOf(summarizeCart({ lines, discount, shipping: rule }));

describe("order pricing", () => {
  it("adds lines at today's prices and points out a change since they were added", () => {
    const pricing = priceOrder([
      item({ quantity: 2, unitPricePaise: 59_900, addedPricePaise: 49_900 }),
      item({ id: "coconut-oil", unitPricePaise: 35_000, addedPricePaise: 35_000 }),
    ]);
    expect(pricing.lines.map((line) => [line.lineTotalPaise, line.previousUnitPricePaise])).toEqual([
      [119_800, 49_900],
      [35_000, null],
    ]);
    expect(pricing).toMatchObject({ subtotalPaise: 154_800, shippingPaise: 0, totalPaise: 154_800 });
    expect(pricing.lines[0]).toMatchObject({ itemId: "bath-powder", image: "bath-powder-1" });
  });

  it("charges shipping below ₹499 after the discount (the policy's ₹599 - 20% example)", () => {
    const pricing = priceOrder([item()], glow20);
    expect(pricing.discount).toEqual({
      code: "GLOW20",
      description: glow20.description,
      amountPaise: 12_000,
    });
    expect(pricing).toMatchObject({
      subtotalPaise: 59_900,
      shippingPaise: 4_900,
      freeShippingShortfallPaise: 2_000,
      totalPaise: 47_900 + 4_900,
    });
  });

  it("compares the goods before the discount with the threshold when the owner's rule says so", () => {
    const before: ShippingRule = { ...shipping, freeShippingBasis: "before_discount" };
    const pricing = priceOrder([item()], glow20, before);
    expect(pricing).toMatchObject({
      subtotalPaise: 59_900,
      shippingPaise: 0,
      freeShippingShortfallPaise: 0,
      totalPaise: 47_900,
    });
    const short = priceOrder([item({ unitPricePaise: 45_000, addedPricePaise: 45_000 })], glow20, before);
    expect(short).toMatchObject({ shippingPaise: 4_900, freeShippingShortfallPaise: 4_900 });
  });

  it("takes the shipping rule it is given", () => {
    const cart = summarizeCart({
      lines: [item()],
      discount: null,
      shipping: {
        freeShippingMinPaise: 99_900,
        shippingFeePaise: 7_900,
        freeShippingBasis: "after_discount",
      },
    });
    expect(orderPricingOf(cart)).toMatchObject({ shippingPaise: 7_900, totalPaise: 59_900 + 7_900 });
  });

  it("ships free at exactly ₹499", () => {
    const pricing = priceOrder([item({ unitPricePaise: 49_900 })]);
    expect(pricing).toMatchObject({ shippingPaise: 0, freeShippingShortfallPaise: 0, totalPaise: 49_900 });
  });

  it("gives nothing below a code's minimum, yet keeps the code applied", () => {
    const welcome10 = { ...glow20, code: "WELCOME10", percent: 10, minAmountPaise: 50_000 };
    const pricing = priceOrder([item({ unitPricePaise: 45_000 })], welcome10);
    expect(pricing.discount?.amountPaise).toBe(0);
    expect(pricing.discountProblem).toBeNull();
    expect(pricing.totalPaise).toBe(45_000 + 4_900);
  });

  it("refuses a code that was switched off or already spent, with the spec's messages", () => {
    const off = priceOrder([item()], { ...glow20, active: false });
    expect(off.discount).toBeNull();
    expect(off.discountProblem).toEqual({ code: "GLOW20", message: "Invalid discount code" });
    const spent = priceOrder([item()], {
      ...glow20,
      problem: discountProblemOf({ ...standing, spent: true }),
    });
    expect(spent.discountProblem?.message).toBe("This discount code has already been used");
    expect(spent.totalPaise).toBe(59_900);
  });

  it("counts the uses in the refusal of a code allowed more than once per customer", () => {
    const problem = discountProblemOf({ ...standing, spent: true, usesPerCustomer: 3 });
    const spent = priceOrder([item()], { ...glow20, problem });
    expect(spent.discountProblem?.message).toBe(
      "This code can be used 3 times per customer, and you have used it 3 times",
    );
    expect(spent.discount).toBeNull();
  });

  it("names the items that ran out or are gone, in the cart's words", () => {
    const pricing = priceOrder([
      item({ quantity: 3, stock: 2, availability: "insufficient_stock" }),
      item({ id: "coconut-oil", stock: 0, availability: "out_of_stock" }),
      item({ id: "old-soap", name: "Old Soap", unitPricePaise: null, stock: 0, availability: "not_sold" }),
    ]);
    expect(pricing.problems).toEqual([
      {
        itemId: "bath-powder",
        name: "Bath Powder",
        reason: "insufficient_stock",
        available: 2,
        message: "Only 2 of Bath Powder are left. Please lower the quantity in your cart.",
      },
      {
        itemId: "coconut-oil",
        name: "Bath Powder",
        reason: "out_of_stock",
        available: 0,
        message: "Bath Powder is out of stock. Please remove it from your cart.",
      },
      {
        itemId: "old-soap",
        name: "Old Soap",
        reason: "not_sold",
        available: 0,
        message: "Old Soap is no longer sold. Please remove it from your cart.",
      },
    ]);
    expect(pricing.lines.map((line) => line.itemId)).toEqual(["bath-powder", "coconut-oil"]);
  });

  it("charges nothing for an empty cart", () => {
    expect(priceOrder([], glow20)).toMatchObject({
      subtotalPaise: 0,
      shippingPaise: 0,
      totalPaise: 0,
    });
  });
});
