import type { Availability, PricedCart } from "./cart.ts";
import type { Paise } from "./money.ts";
import type { PrepaidSaving } from "./prepaid-incentive.ts";

/**
 * The checkout page's and Place order's view of a priced cart (common/cart.ts summarizeCart, with the
 * shipping rule given): the lines that are sold, what stops the order, and the total with shipping. It adds
 * no arithmetic of its own, so the cart, the checkout page and the order cannot disagree. All amounts are paise.
 */

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
  /** The cart's word for the line (common/cart.ts Availability). */
  reason: Exclude<Availability, "available">;
  /** Units left; 0 when none or no longer sold. */
  available: number;
  message: string;
};

export type OrderPricing = {
  lines: PricedLine[];
  subtotalPaise: Paise;
  discount: { code: string; description: string; amountPaise: Paise } | null;
  /** Why the applied code cannot be used on this order; the order is refused until it is removed. */
  discountProblem: { code: string; message: string } | null;
  /** What paying online saved (the owner's prepaid incentive), when priced as paid online. */
  prepaid: PrepaidSaving | null;
  /** The fee charged: 0 when free, or waived by the prepaid incentive. */
  shippingPaise: Paise;
  /** How much more would make shipping free; 0 when it already is. */
  freeShippingShortfallPaise: Paise;
  totalPaise: Paise;
  problems: PricingProblem[];
};

/** The cart as an order: `cart` must have been priced with a shipping rule. */
export function orderPricingOf(cart: PricedCart): OrderPricing {
  if (!cart.shipping) throw new Error("An order is priced with a shipping rule");
  const { discount } = cart;
  return {
    lines: cart.lines.flatMap((line): PricedLine[] =>
      line.availability === "not_sold" || line.unitPricePaise === null
        ? []
        : [
            {
              itemId: line.id,
              kind: line.kind,
              name: line.name,
              image: line.imageKey ?? line.id,
              quantity: line.quantity,
              unitPricePaise: line.unitPricePaise,
              lineTotalPaise: line.lineTotalPaise,
              previousUnitPricePaise: line.priceChanged ? line.addedPricePaise : null,
              perishable: line.perishable,
            },
          ],
    ),
    subtotalPaise: cart.subtotalPaise,
    discount:
      discount?.valid === true
        ? { code: discount.code, description: discount.description, amountPaise: discount.amountPaise }
        : null,
    discountProblem: discount?.problem ? { code: discount.code, message: discount.problem } : null,
    prepaid: cart.prepaid,
    shippingPaise: cart.shipping.feePaise,
    freeShippingShortfallPaise: cart.shipping.freeShippingShortfallPaise,
    totalPaise: cart.shipping.orderTotalPaise,
    problems: cart.lines.flatMap((line): PricingProblem[] =>
      line.availability === "available" || line.problem === null
        ? []
        : [
            {
              itemId: line.id,
              name: line.name,
              reason: line.availability,
              available: line.availability === "not_sold" ? 0 : Math.max(0, line.stock),
              message: line.problem,
            },
          ],
    ),
  };
}

/** What the order keeps of the prepaid incentive: the discount (in its total) or the shipping fee waived. */
export const prepaidColumns = ({ prepaid }: Pick<OrderPricing, "prepaid">) => ({
  prepaidDiscountPaise: prepaid?.kind === "discount" ? prepaid.amountPaise : 0,
  prepaidShippingWaivedPaise: prepaid?.kind === "free_shipping" ? prepaid.amountPaise : 0,
});
