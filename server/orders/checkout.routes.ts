import { Hono } from "hono";
import { imageFor } from "../../common/catalogue.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import type { CheckoutSummary } from "../../common/orders.ts";
import { listAddresses } from "../addresses/addresses.data.ts";
import { requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { codAvailable } from "./place-order.ts";
import { loadCartForOrder } from "./pricing.ts";

/** What the checkout page shows: the cart priced exactly as the order will be, addresses, payment choices. */
export function checkoutRoutes(deps: Deps) {
  return new Hono().get("/", async (c) => {
    const user = await requireUser(deps, c);
    const [{ pricing }, addresses] = await Promise.all([
      loadCartForOrder(deps.db, deps.env, user.id, { lock: false }),
      listAddresses(deps.db, user.id),
    ]);
    const summary: CheckoutSummary = {
      pricing,
      images: Object.fromEntries(pricing.lines.map((line) => [line.itemId, imageFor(line.image).small])),
      addresses,
      estimate: estimateDelivery(new Date()),
      payment: {
        cod: {
          enabled: deps.env.COD_ENABLED,
          maxOrderPaise: deps.env.COD_MAX_ORDER_PAISE,
          available: codAvailable(deps.env, pricing.totalPaise),
        },
        razorpay: { enabled: razorpayConfig(deps.env) !== null },
      },
      freeShippingMinPaise: deps.env.FREE_SHIPPING_MIN_PAISE,
    };
    return c.json(summary);
  });
}
