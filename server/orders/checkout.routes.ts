import { Hono } from "hono";
import { imageFor } from "../../common/catalogue.ts";
import { codProblem, notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import type { ShippingRule } from "../../common/order-pricing.ts";
import type { AddressDelivery, CheckoutSummary } from "../../common/orders.ts";
import type { SavedAddress } from "../../common/schemas/address.ts";
import { guestCheckoutSchema } from "../../common/schemas/orders.ts";
import { listAddresses } from "../addresses/addresses.data.ts";
import { requireUser } from "../auth/session.ts";
import { findDeliveryRule } from "../delivery/delivery.data.ts";
import { lookUpPin } from "../delivery/pin-directory.ts";
import type { Deps } from "../deps.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { rememberSettings } from "../settings/settings.data.ts";
import { validate } from "../validate.ts";
import { codAvailable, codSettings } from "./place-order.ts";
import { type CartForOrder, loadCartForOrder } from "./pricing.ts";

/** What the checkout page shows: the cart priced exactly as the order will be, addresses, payment choices. */
export function checkoutRoutes(deps: Deps) {
  const freeShippingOf = ({ freeShippingMinPaise, freeShippingBasis }: ShippingRule) => ({
    freeShippingMinPaise,
    freeShippingBasis,
  });
  const summarize = async (
    { pricing }: CartForOrder,
    addresses: SavedAddress[],
  ): Promise<CheckoutSummary> => ({
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
    ...freeShippingOf((await rememberSettings(deps)).shipping),
    delivery: await addressDelivery(deps, addresses, pricing.totalPaise),
  });

  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        const [cart, addresses] = await Promise.all([
          loadCartForOrder(deps.db, deps.env, { kind: "account", userId: user.id }, { lock: false }),
          listAddresses(deps.db, user.id),
        ]);
        return c.json(await summarize(cart, addresses));
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
        return c.json(await summarize(cart, []));
      })
  );
}

/** For each saved address, whether the order can go there and be paid in cash: the rules placeOrder applies. */
async function addressDelivery(
  deps: Deps,
  addresses: SavedAddress[],
  totalPaise: number,
): Promise<Record<string, AddressDelivery>> {
  const entries = await Promise.all(
    addresses.map(async (address): Promise<[string, AddressDelivery]> => {
      const [place, rule] = await Promise.all([
        lookUpPin(address.pin),
        findDeliveryRule(deps.db, address.pin),
      ]);
      if (!place) {
        return [
          address.id,
          {
            served: false,
            problem: `PIN code ${address.pin} is not in India Post's directory. Please add the address again with the right PIN code.`,
            codProblem: null,
          },
        ];
      }
      if (rule?.rule === "not_served") {
        return [address.id, { served: false, problem: notServedMessage(place), codProblem: null }];
      }
      return [
        address.id,
        {
          served: true,
          problem: null,
          codProblem: codProblem(codSettings(deps.env), totalPaise, rule, address.pin),
        },
      ];
    }),
  );
  return Object.fromEntries(entries);
}
