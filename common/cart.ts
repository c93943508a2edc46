import type { ProductImage } from "./catalogue.ts";
import { DISCOUNT_MESSAGES, discountAmount, type PricedCode, shortfallForCode } from "./discount.ts";
import type { Paise } from "./money.ts";
import {
  type PaymentChoice,
  type PrepaidIncentive,
  type PrepaidSaving,
  prepaidDiscountOn,
} from "./prepaid-incentive.ts";

/** Quantities run from 1 to 99 per line; setting 0 removes the line. */
export const MAX_QUANTITY = 99;
/** A cart holds at most this many different items, so one request can never ask the server to price thousands. */
export const MAX_CART_LINES = 100;

export const CART_ITEM_KINDS = ["product", "combo"] as const;
export type CartItemKind = (typeof CART_ITEM_KINDS)[number];

/** One line as the shopper holds it: the product slug or combo id, and how many. Never a price. */
export type CartEntry = { id: string; kind: CartItemKind; quantity: number };

/**
 * Why a line cannot go to checkout: the catalogue no longer sells it, none is left,
 * or fewer are left than the line asks for. The cart, the checkout page and Place order use these words.
 */
export type Availability = "available" | "not_sold" | "out_of_stock" | "insufficient_stock";

/** A line's word for whether it can be ordered: sold at all, any left, enough for the quantity. */
export function availabilityOf(sold: boolean, stock: number, quantity: number): Availability {
  if (!sold) return "not_sold";
  if (stock <= 0) return "out_of_stock";
  if (quantity > stock) return "insufficient_stock";
  return "available";
}

/** A line with what the catalogue says about it now; the server fills this in, never the browser. */
export type ResolvedLine = CartEntry & {
  name: string;
  /** The product or combo page. */
  href: string;
  image: ProductImage | null;
  /** The picture's key (common/catalogue.ts imageFor), as an order line keeps it; null when unknown. */
  imageKey: string | null;
  /** The catalogue's current unit price; null only when the catalogue has no record of the item at all. */
  unitPricePaise: Paise | null;
  /** The unit price when the shopper added it, to show that it has changed since. */
  addedPricePaise: Paise | null;
  availability: Availability;
  /** Units the catalogue has now; 0 when it has no record of the item. */
  stock: number;
  /** A food (or a combo with one): it cannot be returned. */
  perishable: boolean;
};

export type CartLine = ResolvedLine & {
  lineTotalPaise: Paise;
  priceChanged: boolean;
  /** Why this line cannot be ordered, in the words Place order refuses it with; null while it can. */
  problem: string | null;
};

/** What the free-shipping threshold is compared with: the goods' value after the discount, or before it. */
export const FREE_SHIPPING_BASES = ["after_discount", "before_discount"] as const;
export type FreeShippingBasis = (typeof FREE_SHIPPING_BASES)[number];

/** Free at or above the threshold (compared as the owner chose), else the fee. */
export type ShippingRule = {
  freeShippingMinPaise: Paise;
  shippingFeePaise: Paise;
  freeShippingBasis: FreeShippingBasis;
};

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

export type AppliedDiscount = {
  code: string;
  description: string;
  percent: number;
  /** A flat-amount code's amount; 0 for a percent code. */
  amountOffPaise: Paise;
  minAmountPaise: Paise;
  amountPaise: Paise;
  /** How much more to add before the code gives anything; 0 once it applies. */
  shortfallPaise: Paise;
  /** False when the code cannot be used on this order (see `problem`): it then takes nothing off. */
  valid: boolean;
  /** Why the code takes nothing off, in the words Place order would refuse it with; null while it applies. */
  problem: string | null;
};

export type PricedCart = {
  /** The server's change counter for a signed-in cart (0 for a guest's); other devices compare it. */
  version: number;
  lines: CartLine[];
  /** Total quantity over all lines: the header badge. */
  itemCount: number;
  /** Lines that can be bought, at current catalogue prices. */
  subtotalPaise: Paise;
  discount: AppliedDiscount | null;
  discountPaise: Paise;
  /**
   * The owner's reward for paying online, when the order is priced as paid online and it saves something:
   * a discount after the code's (in totalPaise), or the shipping fee waived (shipping.feePaise is then 0).
   */
  prepaid: PrepaidSaving | null;
  /** Subtotal less the discount and a prepaid discount; shipping is added at checkout. */
  totalPaise: Paise;
  /** Shipping by the rule it was priced with (checkout and Place order), or null when none was given. */
  shipping: {
    feePaise: Paise;
    /** How much more would make shipping free; 0 when it already is. */
    freeShippingShortfallPaise: Paise;
    /** What the order charges: the total with shipping. */
    orderTotalPaise: Paise;
  } | null;
  /** Null when the cart can go to checkout, else why not, in words for the shopper. */
  checkoutBlocker: string | null;
};

/**
 * What a cart is priced with. Everything that changes a price comes in here rather than being read inside,
 * so the cart, the checkout page and Place order price alike (the shipping rule is the owner's to set).
 */
export type CartPricingInput = {
  lines: readonly ResolvedLine[];
  discount: PricedCode | null;
  /** The server's change counter for a signed-in cart; 0 for a guest's. */
  version?: number;
  /** Given at checkout and Place order; the cart page adds shipping from the shop's config itself. */
  shipping?: ShippingRule | null;
  /**
   * How the order is paid, with the owner's prepaid incentive (checkout and Place order); without it, or for
   * cash on delivery, no incentive is applied.
   */
  payment?: { method: PaymentChoice; incentive: PrepaidIncentive } | null;
};

export const AVAILABILITY_LABELS: Record<Exclude<Availability, "available">, string> = {
  not_sold: "No longer sold",
  out_of_stock: "Out of stock",
  insufficient_stock: "Not enough in stock for this quantity",
};

/** Why a line cannot be ordered, in the words the shopper reads at checkout and in Place order's refusal. */
export function lineProblem(line: Pick<ResolvedLine, "name" | "availability" | "stock">): string | null {
  switch (line.availability) {
    case "available":
      return null;
    case "not_sold":
      return `${line.name} is no longer sold. Please remove it from your cart.`;
    case "out_of_stock":
      return `${line.name} is out of stock. Please remove it from your cart.`;
    case "insufficient_stock":
      return `Only ${line.stock} of ${line.name} ${line.stock === 1 ? "is" : "are"} left. Please lower the quantity in your cart.`;
  }
}

/**
 * The one cart arithmetic, for the cart, the checkout page and Place order alike, and for the browser to
 * show a change at once while the server confirms it: line totals, subtotal of what can be bought, the
 * discount on that subtotal (spec 5), total, shipping when a rule is given, and whether checkout is open.
 */
export function summarizeCart({
  lines,
  discount: discountCode,
  version = 0,
  shipping,
  payment,
}: CartPricingInput): PricedCart {
  const priced = lines.map((line) => ({
    ...line,
    lineTotalPaise: (line.unitPricePaise ?? 0) * line.quantity,
    priceChanged:
      line.addedPricePaise !== null &&
      line.unitPricePaise !== null &&
      line.addedPricePaise !== line.unitPricePaise,
    problem: lineProblem(line),
  }));
  const subtotalPaise = priced
    .filter((line) => line.availability === "available")
    .reduce((sum, line) => sum + line.lineTotalPaise, 0);
  const problem = discountCode
    ? (discountCode.problem ?? (discountCode.active ? null : DISCOUNT_MESSAGES.invalid))
    : null;
  const usable = problem === null;
  const discount = discountCode && {
    code: discountCode.code,
    description: discountCode.description,
    percent: discountCode.percent,
    amountOffPaise: discountCode.amountOffPaise,
    minAmountPaise: discountCode.minAmountPaise,
    amountPaise: usable ? discountAmount(subtotalPaise, discountCode) : 0,
    shortfallPaise: usable ? shortfallForCode(subtotalPaise, discountCode) : 0,
    valid: usable,
    problem,
  };
  const discountPaise = discount?.amountPaise ?? 0;
  const afterCodePaise = subtotalPaise - discountPaise;
  const hasItems = priced.some((line) => line.availability === "available");
  const quote = shipping ? shippingQuote(subtotalPaise, afterCodePaise, shipping, hasItems) : null;
  const incentive = payment?.method === "razorpay" ? payment.incentive : null;
  const prepaid = prepaidSavingOf(incentive, afterCodePaise, quote?.feePaise ?? 0);
  const prepaidDiscountPaise = prepaid?.kind === "discount" ? prepaid.amountPaise : 0;
  const totalPaise = afterCodePaise - prepaidDiscountPaise;
  const waived = prepaid?.kind === "free_shipping";
  const feePaise = waived ? 0 : (quote?.feePaise ?? 0);
  return {
    version,
    lines: priced,
    itemCount: priced.reduce((sum, line) => sum + line.quantity, 0),
    subtotalPaise,
    discount,
    discountPaise,
    prepaid,
    totalPaise,
    shipping: quote && {
      feePaise,
      freeShippingShortfallPaise: waived ? 0 : quote.freeShippingShortfallPaise,
      orderTotalPaise: totalPaise + feePaise,
    },
    checkoutBlocker: checkoutBlocker(priced),
  };
}

/**
 * What paying online saves: a discount on the goods after the code's, or the shipping fee. It comes after the
 * free-shipping threshold is decided (on the value after the code), so choosing to pay online never costs a
 * shopper free shipping; null when it saves nothing.
 */
function prepaidSavingOf(
  incentive: PrepaidIncentive | null,
  afterCodePaise: Paise,
  feePaise: Paise,
): PrepaidSaving | null {
  if (!incentive || incentive.kind === "none") return null;
  if (incentive.kind === "free_shipping") {
    return feePaise > 0 ? { kind: "free_shipping", amountPaise: feePaise } : null;
  }
  const amountPaise = prepaidDiscountOn(afterCodePaise, incentive);
  return amountPaise > 0 ? { kind: "discount", amountPaise } : null;
}

function shippingQuote(
  subtotalPaise: Paise,
  totalPaise: Paise,
  rule: ShippingRule,
  hasItems: boolean,
): NonNullable<PricedCart["shipping"]> {
  const valuePaise = thresholdValue(rule, subtotalPaise, totalPaise);
  const feePaise = shippingFor(valuePaise, rule, hasItems);
  return {
    feePaise,
    freeShippingShortfallPaise: hasItems ? Math.max(0, rule.freeShippingMinPaise - valuePaise) : 0,
    orderTotalPaise: totalPaise + feePaise,
  };
}

function checkoutBlocker(lines: readonly ResolvedLine[]): string | null {
  if (lines.length === 0) return "Your cart is empty.";
  const blocked = lines.filter((line) => line.availability !== "available");
  if (blocked.length === 0) return null;
  const names = blocked.map((line) => line.name).join(", ");
  return `Remove or change ${blocked.length === 1 ? "this item" : "these items"} to continue: ${names}.`;
}

/** The discount code a priced cart was summarised with, to summarise it again after a local change. */
export function discountCodeOf(cart: PricedCart): PricedCode | null {
  const { discount } = cart;
  return (
    discount && {
      code: discount.code,
      description: discount.description,
      percent: discount.percent,
      amountOffPaise: discount.amountOffPaise,
      minAmountPaise: discount.minAmountPaise,
      active: discount.valid,
      problem: discount.problem,
    }
  );
}

/** Spec 4: adding an id already in the cart raises its quantity by 1 (up to 99); a new id starts at 1. */
export function addEntry<T extends CartEntry>(
  entries: readonly T[],
  item: Omit<T, "quantity">,
  quantity = 1,
): { entries: T[]; added: boolean } {
  const existing = entries.find((entry) => entry.id === item.id);
  if (!existing)
    return {
      entries: [...entries, { ...item, quantity: Math.min(quantity, MAX_QUANTITY) } as T],
      added: true,
    };
  if (existing.quantity >= MAX_QUANTITY) return { entries: [...entries], added: false };
  return {
    entries: entries.map((entry) =>
      entry.id === item.id
        ? { ...entry, quantity: Math.min(entry.quantity + quantity, MAX_QUANTITY) }
        : entry,
    ),
    added: true,
  };
}

/** Sets a line's quantity, kept within 0 to 99; 0 removes the line. */
export function setEntryQuantity<T extends CartEntry>(
  entries: readonly T[],
  id: string,
  quantity: number,
): T[] {
  const wanted = Math.min(MAX_QUANTITY, Math.max(0, Math.trunc(quantity)));
  if (wanted === 0) return removeEntry(entries, id);
  return entries.map((entry) => (entry.id === id ? { ...entry, quantity: wanted } : entry));
}

export function removeEntry<T extends CartEntry>(entries: readonly T[], id: string): T[] {
  return entries.filter((entry) => entry.id !== id);
}
