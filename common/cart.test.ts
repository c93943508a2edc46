import { describe, expect, it } from "vitest";
import {
  addEntry,
  type CartEntry,
  discountCodeOf,
  type ResolvedLine,
  removeEntry,
  setEntryQuantity,
  summarizeCart,
} from "./cart.ts";
import { type DiscountCode, UNLIMITED } from "./discount.ts";
import { orderPricingOf } from "./order-pricing.ts";
import type { PrepaidIncentive } from "./prepaid-incentive.ts";

const line = (overrides: Partial<ResolvedLine> & Pick<ResolvedLine, "id">): ResolvedLine => ({
  kind: "product",
  quantity: 1,
  name: overrides.id,
  href: `/product/${overrides.id}`,
  image: null,
  imageKey: overrides.id,
  unitPricePaise: 49900,
  addedPricePaise: 49900,
  availability: "available",
  stock: 50,
  perishable: false,
  ...overrides,
});

const WELCOME10: DiscountCode = {
  code: "WELCOME10",
  percent: 10,
  description: "10% off orders of ₹500 or more",
  active: true,
  minAmountPaise: 50000,
  amountOffPaise: 0,
  ...UNLIMITED,
};

describe("summarising a cart", () => {
  it("totals lines at their unit prices and counts the quantity for the badge", () => {
    const cart = summarizeCart({
      lines: [line({ id: "a", quantity: 2 }), line({ id: "b", quantity: 3, unitPricePaise: 25000 })],
      discount: null,
      version: 7,
    });
    expect(cart.lines.map((l) => l.lineTotalPaise)).toEqual([99800, 75000]);
    expect(cart).toMatchObject({
      version: 7,
      itemCount: 5,
      subtotalPaise: 174800,
      discount: null,
      discountPaise: 0,
      totalPaise: 174800,
      checkoutBlocker: null,
    });
  });

  it("flags a line whose price changed since it was added", () => {
    const cart = summarizeCart({
      lines: [line({ id: "a", addedPricePaise: 45000 }), line({ id: "b", addedPricePaise: null })],
      discount: null,
    });
    expect(cart.lines.map((l) => l.priceChanged)).toEqual([true, false]);
  });

  it("leaves lines that cannot be bought out of the subtotal and closes checkout, naming them", () => {
    const cart = summarizeCart({
      lines: [
        line({ id: "a" }),
        line({ id: "b", name: "Wax Powder", availability: "out_of_stock" }),
        line({ id: "c", name: "Lipstick", availability: "not_sold", unitPricePaise: null }),
      ],
      discount: null,
    });
    expect(cart.subtotalPaise).toBe(49900);
    expect(cart.lines[2]?.lineTotalPaise).toBe(0);
    expect(cart.checkoutBlocker).toBe("Remove or change these items to continue: Wax Powder, Lipstick.");
    expect(
      summarizeCart({
        lines: [line({ id: "x", name: "Moringa Powder", availability: "insufficient_stock" })],
        discount: null,
      }).checkoutBlocker,
    ).toBe("Remove or change this item to continue: Moringa Powder.");
  });

  it("does not open checkout for an empty cart", () => {
    expect(summarizeCart({ lines: [], discount: null }).checkoutBlocker).toBe("Your cart is empty.");
  });

  it("takes the discount off the subtotal, with the shortfall below the minimum", () => {
    const below = summarizeCart({ lines: [line({ id: "a", unitPricePaise: 39900 })], discount: WELCOME10 });
    expect(below.discount).toMatchObject({ amountPaise: 0, shortfallPaise: 10100, valid: true });
    expect(below.totalPaise).toBe(39900);

    const above = summarizeCart({
      lines: [line({ id: "a", unitPricePaise: 39900, quantity: 3 })],
      discount: WELCOME10,
    });
    expect(above.discount).toMatchObject({ amountPaise: 12000, shortfallPaise: 0 }); // 119.70 -> 120
    expect(above.totalPaise).toBe(107700);
  });

  it("takes nothing off for a code switched off since it was applied", () => {
    const cart = summarizeCart({
      lines: [line({ id: "a", quantity: 4 })],
      discount: { ...WELCOME10, active: false },
    });
    expect(cart.discount).toMatchObject({
      code: "WELCOME10",
      valid: false,
      amountPaise: 0,
      shortfallPaise: 0,
    });
    expect(cart.totalPaise).toBe(199600);
  });

  it("can be summarised again from its own result, as the browser does after a local change", () => {
    const first = summarizeCart({ lines: [line({ id: "a" })], discount: WELCOME10, version: 3 });
    const again = summarizeCart({
      lines: first.lines.map((l) => ({ ...l, quantity: 2 })),
      discount: discountCodeOf(first),
      version: first.version,
    });
    expect(again.discount).toMatchObject({ amountPaise: 10000, shortfallPaise: 0 });
    expect(again.totalPaise).toBe(89800);
  });
});

describe("changing the entries of a guest's cart", () => {
  const start: CartEntry[] = [{ id: "a", kind: "product", quantity: 1 }];

  it("adds a new id at 1 and raises an existing id by 1, up to 99", () => {
    const withB = addEntry(start, { id: "b", kind: "combo" });
    expect(withB).toEqual({
      entries: [
        { id: "a", kind: "product", quantity: 1 },
        { id: "b", kind: "combo", quantity: 1 },
      ],
      added: true,
    });
    expect(addEntry(withB.entries, { id: "a", kind: "product" }).entries[0]?.quantity).toBe(2);
    const full = setEntryQuantity(start, "a", 99);
    expect(addEntry(full, { id: "a", kind: "product" })).toEqual({ entries: full, added: false });
  });

  it("keeps extra fields of an entry (the name shown before prices arrive)", () => {
    const named = [{ id: "a", kind: "product" as const, quantity: 1, name: "Coconut Oil" }];
    expect(addEntry(named, { id: "a", kind: "product", name: "Coconut Oil" }).entries).toEqual([
      { id: "a", kind: "product", quantity: 2, name: "Coconut Oil" },
    ]);
  });

  it("sets quantities within 1 to 99, removes at 0, and removes by id", () => {
    expect(setEntryQuantity(start, "a", 5)[0]?.quantity).toBe(5);
    expect(setEntryQuantity(start, "a", 150)[0]?.quantity).toBe(99);
    expect(setEntryQuantity(start, "a", 0)).toEqual([]);
    expect(setEntryQuantity(start, "a", -3)).toEqual([]);
    expect(removeEntry(start, "a")).toEqual([]);
    expect(removeEntry(start, "zzz")).toEqual(start);
  });
});

describe("adding several at once", () => {
  it("adds the chosen quantity, within 99", () => {
    const empty: CartEntry[] = [];
    const first = addEntry(empty, { id: "coconut-oil", kind: "product" }, 3);
    expect(first.entries).toEqual([{ id: "coconut-oil", kind: "product", quantity: 3 }]);
    const capped = addEntry(first.entries, { id: "coconut-oil", kind: "product" }, 98);
    expect(capped.entries[0]?.quantity).toBe(99);
  });
});

describe("the prepaid incentive in the cart's pricing", () => {
  const rule = {
    freeShippingMinPaise: 99900,
    shippingFeePaise: 7900,
    freeShippingBasis: "after_discount",
  } as const;
  const online = (incentive: PrepaidIncentive) => ({ method: "razorpay" as const, incentive });
  const lines = [line({ id: "a", quantity: 1, unitPricePaise: 79900 })];

  it("takes a percentage after the code's discount, rounded to the rupee, as its own line", () => {
    const cart = summarizeCart({
      lines,
      discount: WELCOME10,
      shipping: rule,
      payment: online({ kind: "percent", percent: 5, capPaise: null }),
    });
    // 799 − 80 (10%, rounded) = 719; 5% of 719 = 35.95 → ₹36.
    expect(cart.discountPaise).toBe(8000);
    expect(cart.prepaid).toEqual({ kind: "discount", amountPaise: 3600 });
    expect(cart.totalPaise).toBe(79900 - 8000 - 3600);
    expect(cart.shipping).toMatchObject({ feePaise: 7900, orderTotalPaise: 79900 - 8000 - 3600 + 7900 });
  });

  it("holds a percentage to the owner's cap, and a flat amount to what the goods are worth", () => {
    const capped = summarizeCart({
      lines,
      discount: null,
      shipping: rule,
      payment: online({ kind: "percent", percent: 10, capPaise: 5000 }),
    });
    expect(capped.prepaid).toEqual({ kind: "discount", amountPaise: 5000 });
    const flat = summarizeCart({
      lines: [line({ id: "b", unitPricePaise: 3000 })],
      discount: null,
      shipping: rule,
      payment: online({ kind: "flat", amountPaise: 5000 }),
    });
    expect(flat.prepaid).toEqual({ kind: "discount", amountPaise: 3000 });
    expect(flat.totalPaise).toBe(0);
    expect(flat.shipping?.orderTotalPaise).toBe(7900);
  });

  it("waives the shipping fee for free shipping, and says nothing when shipping is free anyway", () => {
    const waived = summarizeCart({
      lines,
      discount: null,
      shipping: rule,
      payment: online({ kind: "free_shipping" }),
    });
    expect(waived.prepaid).toEqual({ kind: "free_shipping", amountPaise: 7900 });
    expect(waived.shipping).toEqual({ feePaise: 0, freeShippingShortfallPaise: 0, orderTotalPaise: 79900 });
    const free = summarizeCart({
      lines: [line({ id: "a", unitPricePaise: 120000 })],
      discount: null,
      shipping: rule,
      payment: online({ kind: "free_shipping" }),
    });
    expect(free.prepaid).toBeNull();
  });

  it("does not decide free shipping on the prepaid discount: paying online never adds a fee", () => {
    const cart = summarizeCart({
      lines: [line({ id: "a", unitPricePaise: 100000 })],
      discount: null,
      shipping: rule,
      payment: online({ kind: "flat", amountPaise: 5000 }),
    });
    expect(cart.shipping).toMatchObject({ feePaise: 0, orderTotalPaise: 95000 });
  });

  it("applies nothing for cash on delivery, without a payment, or with no incentive", () => {
    const incentive: PrepaidIncentive = { kind: "flat", amountPaise: 5000 };
    for (const payment of [{ method: "cod" as const, incentive }, null, online({ kind: "none" })]) {
      const cart = summarizeCart({ lines, discount: null, shipping: rule, payment });
      expect(cart.prepaid).toBeNull();
      expect(cart.shipping?.orderTotalPaise).toBe(79900 + 7900);
    }
  });

  it("is carried to the order's view with the shipping it charged", () => {
    const pricing = orderPricingOf(
      summarizeCart({ lines, discount: null, shipping: rule, payment: online({ kind: "free_shipping" }) }),
    );
    expect(pricing).toMatchObject({
      prepaid: { kind: "free_shipping", amountPaise: 7900 },
      shippingPaise: 0,
      totalPaise: 79900,
    });
  });
});
