import { describe, expect, it } from "vitest";
import { type PricingDiscount, type PricingItem, priceOrder, type ShippingRule } from "./order-pricing.ts";

const shipping: ShippingRule = {
  freeShippingMinPaise: 49_900,
  shippingFeePaise: 4_900,
  freeShippingBasis: "after_discount",
};
const item = (overrides: Partial<PricingItem> & { price?: number; stock?: number } = {}): PricingItem => {
  const { price = 59_900, stock = 10, ...rest } = overrides;
  return {
    itemId: "bath-powder",
    kind: "product",
    quantity: 1,
    addedPricePaise: price,
    current: { name: "Bath Powder", unitPricePaise: price, stock, image: "bath-powder-1", perishable: false },
    ...rest,
  };
};
const glow20: PricingDiscount = {
  code: "GLOW20",
  percent: 20,
  amountOffPaise: 0,
  unavailable: null,
  description: "Flat 20% off all products",
  minAmountPaise: 0,
  active: true,
  spent: false,
  usesPerCustomer: 1,
};

describe("order pricing", () => {
  it("adds lines at today's prices and points out a change since they were added", () => {
    const pricing = priceOrder({
      items: [item({ quantity: 2, addedPricePaise: 49_900 }), item({ itemId: "coconut-oil", price: 35_000 })],
      discount: null,
      shipping,
    });
    expect(pricing.lines.map((line) => [line.lineTotalPaise, line.previousUnitPricePaise])).toEqual([
      [119_800, 49_900],
      [35_000, null],
    ]);
    expect(pricing).toMatchObject({ subtotalPaise: 154_800, shippingPaise: 0, totalPaise: 154_800 });
  });

  it("charges shipping below ₹499 after the discount (the policy's ₹599 - 20% example)", () => {
    const pricing = priceOrder({ items: [item()], discount: glow20, shipping });
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
    const pricing = priceOrder({ items: [item()], discount: glow20, shipping: before });
    expect(pricing).toMatchObject({
      subtotalPaise: 59_900,
      shippingPaise: 0,
      freeShippingShortfallPaise: 0,
      totalPaise: 47_900,
    });
    const short = priceOrder({ items: [item({ price: 45_000 })], discount: glow20, shipping: before });
    expect(short).toMatchObject({ shippingPaise: 4_900, freeShippingShortfallPaise: 4_900 });
  });

  it("ships free at exactly ₹499", () => {
    const pricing = priceOrder({ items: [item({ price: 49_900 })], discount: null, shipping });
    expect(pricing).toMatchObject({ shippingPaise: 0, freeShippingShortfallPaise: 0, totalPaise: 49_900 });
  });

  it("gives nothing below a code's minimum, yet keeps the code applied", () => {
    const welcome10 = { ...glow20, code: "WELCOME10", percent: 10, minAmountPaise: 50_000 };
    const pricing = priceOrder({ items: [item({ price: 45_000 })], discount: welcome10, shipping });
    expect(pricing.discount?.amountPaise).toBe(0);
    expect(pricing.discountProblem).toBeNull();
    expect(pricing.totalPaise).toBe(45_000 + 4_900);
  });

  it("refuses a code that was switched off or already spent, with the spec's messages", () => {
    const off = priceOrder({ items: [item()], discount: { ...glow20, active: false }, shipping });
    expect(off.discount).toBeNull();
    expect(off.discountProblem).toEqual({ code: "GLOW20", message: "Invalid discount code" });
    const spent = priceOrder({ items: [item()], discount: { ...glow20, spent: true }, shipping });
    expect(spent.discountProblem?.message).toBe("This discount code has already been used");
    expect(spent.totalPaise).toBe(59_900);
  });

  it("counts the uses in the refusal of a code allowed more than once per customer", () => {
    const spent = priceOrder({
      items: [item()],
      discount: { ...glow20, spent: true, usesPerCustomer: 3 },
      shipping,
    });
    expect(spent.discountProblem?.message).toBe(
      "This code can be used 3 times per customer, and you have used it 3 times",
    );
    expect(spent.discount).toBeNull();
  });

  it("names the items that ran out or are gone", () => {
    const pricing = priceOrder({
      items: [
        item({ quantity: 3, stock: 2 }),
        item({ itemId: "coconut-oil", stock: 0 }),
        { ...item({ itemId: "old-soap" }), current: null },
      ],
      discount: null,
      shipping,
    });
    expect(pricing.problems).toEqual([
      {
        itemId: "bath-powder",
        name: "Bath Powder",
        reason: "out_of_stock",
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
      expect.objectContaining({ itemId: "old-soap", reason: "unavailable" }),
    ]);
  });

  it("charges nothing for an empty cart", () => {
    expect(priceOrder({ items: [], discount: glow20, shipping })).toMatchObject({
      subtotalPaise: 0,
      shippingPaise: 0,
      totalPaise: 0,
    });
  });
});
