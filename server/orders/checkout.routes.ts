import { Hono } from "hono";
import { imageFor } from "../../common/catalogue.ts";
import { codProblem, notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import type { AddressDelivery, CheckoutSummary } from "../../common/orders.ts";
import type { SavedAddress } from "../../common/schemas/address.ts";
import { listAddresses } from "../addresses/addresses.data.ts";
import { requireUser } from "../auth/session.ts";
import { findDeliveryRule } from "../delivery/delivery.data.ts";
import { lookUpPin } from "../delivery/pin-directory.ts";
import type { Deps } from "../deps.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { codAvailable, codSettings } from "./place-order.ts";
import { loadCartForOrder } from "./pricing.ts";

/** What the checkout page shows: the cart priced exactly as the order will be, addresses, payment choices. */
export function checkoutRoutes(deps: Deps) {
  return new Hono().get("/", async (c) => {
    const user = await requireUser(deps, c);
    const [{ pricing }, addresses] = await Promise.all([
      loadCartForOrder(deps.db, deps.env, user.id, { lock: false }),
      listAddresses(deps.db, user.id),
    ]);
    const delivery = await addressDelivery(deps, addresses, pricing.totalPaise);
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
      delivery,
    };
    return c.json(summary);
  });
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
