import { Hono } from "hono";
import { imageFor } from "../../common/catalogue.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import type { CheckoutSummary } from "../../common/orders.ts";
import type { SavedAddress } from "../../common/schemas/address.ts";
import { guestCheckoutSchema } from "../../common/schemas/orders.ts";
import { listAddresses } from "../addresses/addresses.data.ts";
import { requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { validate } from "../validate.ts";
import { codAvailable } from "./place-order.ts";
import { type CartForOrder, loadCartForOrder } from "./pricing.ts";

/** What the checkout page shows: the cart priced exactly as the order will be, addresses, payment choices. */
export function checkoutRoutes(deps: Deps) {
  const summarize = ({ pricing }: CartForOrder, addresses: SavedAddress[]): CheckoutSummary => ({
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
  });

  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        const [cart, addresses] = await Promise.all([
          loadCartForOrder(deps.db, deps.env, { kind: "account", userId: user.id }, { lock: false }),
          listAddresses(deps.db, user.id),
        ]);
        return c.json(summarize(cart, addresses));
      })
      // A guest's cart lives in the browser: it is sent to be priced by the same function the order uses. The
      // code's one use per customer is checked when the order names the e-mail and mobile.
      .post("/guest", validate("json", guestCheckoutSchema), async (c) => {
        const { items, discountCode } = c.req.valid("json");
        const cart = await loadCartForOrder(
          deps.db,
          deps.env,
          { kind: "guest", email: "", mobile: "", items, discountCode: discountCode ?? null },
          { lock: false },
        );
        return c.json(summarize(cart, []));
      })
  );
}
