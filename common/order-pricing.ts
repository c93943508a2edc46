import { DISCOUNT_MESSAGES, discountAmount, usedUpMessage } from "./discount.ts";
import type { Paise } from "./money.ts";

/**
 * Order-time pricing: the cart's items at today's prices and stock, the applied code, shipping.
 * Pure: the server feeds it rows it has locked inside the order transaction, and the checkout page
 * shows exactly what the order will charge. All amounts are paise.
 */

export type PricingItem = {
  itemId: string;
  kind: "product" | "combo";
  quantity: number;
  /** The unit price when it went into the cart, to point out a change since. */
  addedPricePaise: Paise;
  /** Null when the item no longer exists or is no longer sold. */
  current: {
    name: string;
    unitPricePaise: Paise;
    stock: number;
    image: string;
    perishable: boolean;
  } | null;
};

export type PricingDiscount = {
  code: string;
  percent: number;
  amountOffPaise: Paise;
  /** Why the code cannot be used now (its window or total limit), or null. */
  unavailable: string | null;
  description: string;
  minAmountPaise: Paise;
  active: boolean;
  /** The shopper's uses of this code all went to orders already. */
  spent: boolean;
  /** Uses one customer may make (null: no limit), for the words of the refusal. */
  usesPerCustomer: number | null;
};

/** What the free-shipping threshold is compared with: the goods' value after the discount, or before it. */
export const FREE_SHIPPING_BASES = ["after_discount", "before_discount"] as const;
export type FreeShippingBasis = (typeof FREE_SHIPPING_BASES)[number];

export type ShippingRule = {
  freeShippingMinPaise: Paise;
  shippingFeePaise: Paise;
  freeShippingBasis: FreeShippingBasis;
};

export type PricedLine = {
  itemId: string;
  kind: "product" | "combo";
  name: string;
  image: string;
  quantity: number;
  unitPricePaise: Paise;
  lineTotalPaise: Paise;
  /** Set when today's price differs from the price when added. */
  previousUnitPricePaise: Paise | null;
  perishable: boolean;
};

export type PricingProblem = {
  itemId: string;
  name: string;
  reason: "unavailable" | "out_of_stock";
  /** Units left; 0 when none or unavailable. */
  available: number;
  message: string;
};

export type OrderPricing = {
  lines: PricedLine[];
  subtotalPaise: Paise;
  discount: { code: string; description: string; amountPaise: Paise } | null;
  /** Why the applied code cannot be used on this order; the order is refused until it is removed. */
  discountProblem: { code: string; message: string } | null;
  shippingPaise: Paise;
  /** How much more would make shipping free; 0 when it already is. */
  freeShippingShortfallPaise: Paise;
  totalPaise: Paise;
  problems: PricingProblem[];
};

/**
 * Why a code cannot be used on this order, in the words the shopper reads, or null. The cart shows the same
 * words (common/cart.ts), so a code the cart shows as applied is the code the order gets.
 */
export function discountProblemOf(discount: PricingDiscount): string | null {
  if (!discount.active) return DISCOUNT_MESSAGES.invalid;
  if (discount.unavailable) return discount.unavailable;
  if (discount.spent) return usedUpMessage(discount.usesPerCustomer);
  return null;
}

/**
 * Free at or above the threshold, else the fee; nothing to ship costs nothing. `valuePaise` is the goods'
 * value the rule's basis names (thresholdValue below).
 */
export function shippingFor(valuePaise: Paise, rule: ShippingRule, hasItems: boolean): Paise {
  return !hasItems || valuePaise >= rule.freeShippingMinPaise ? 0 : rule.shippingFeePaise;
}

/** The value the owner's rule compares with the threshold: before or after the discount. */
export const thresholdValue = (rule: ShippingRule, subtotalPaise: Paise, afterDiscountPaise: Paise) =>
  rule.freeShippingBasis === "before_discount" ? subtotalPaise : afterDiscountPaise;

export function priceOrder(input: {
  items: readonly PricingItem[];
  discount: PricingDiscount | null;
  shipping: ShippingRule;
}): OrderPricing {
  const lines: PricedLine[] = [];
  const problems: PricingProblem[] = [];
  for (const item of input.items) {
    if (!item.current) {
      problems.push({
        itemId: item.itemId,
        name: item.itemId,
        reason: "unavailable",
        available: 0,
        message: "This item is no longer sold. Please remove it from your cart.",
      });
      continue;
    }
    const { name, unitPricePaise, stock, image, perishable } = item.current;
    lines.push({
      itemId: item.itemId,
      kind: item.kind,
      name,
      image,
      quantity: item.quantity,
      unitPricePaise,
      lineTotalPaise: unitPricePaise * item.quantity,
      previousUnitPricePaise: item.addedPricePaise === unitPricePaise ? null : item.addedPricePaise,
      perishable,
    });
    if (stock < item.quantity) {
      problems.push({
        itemId: item.itemId,
        name,
        reason: "out_of_stock",
        available: Math.max(0, stock),
        message:
          stock <= 0
            ? `${name} is out of stock. Please remove it from your cart.`
            : `Only ${stock} of ${name} ${stock === 1 ? "is" : "are"} left. Please lower the quantity in your cart.`,
      });
    }
  }

  const subtotalPaise = lines.reduce((sum, line) => sum + line.lineTotalPaise, 0);
  let discount: OrderPricing["discount"] = null;
  let discountProblem: OrderPricing["discountProblem"] = null;
  if (input.discount) {
    const { code, description } = input.discount;
    const problem = discountProblemOf(input.discount);
    if (problem) discountProblem = { code, message: problem };
    else discount = { code, description, amountPaise: discountAmount(subtotalPaise, input.discount) };
  }

  const afterDiscount = subtotalPaise - (discount?.amountPaise ?? 0);
  const thresholdPaise = thresholdValue(input.shipping, subtotalPaise, afterDiscount);
  const shippingPaise = shippingFor(thresholdPaise, input.shipping, lines.length > 0);
  return {
    lines,
    subtotalPaise,
    discount,
    discountProblem,
    shippingPaise,
    freeShippingShortfallPaise:
      lines.length === 0 ? 0 : Math.max(0, input.shipping.freeShippingMinPaise - thresholdPaise),
    totalPaise: afterDiscount + shippingPaise,
    problems,
  };
}
