import { Hono } from "hono";
import type { ShippingRule } from "../../common/cart.ts";
import { imageFor } from "../../common/catalogue.ts";
import type { CodRules } from "../../common/cod-rules.ts";
import { notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import { orderPricingOf } from "../../common/order-pricing.ts";
import type { AddressDelivery, CheckoutSummary } from "../../common/orders.ts";
import { prepaidOffer } from "../../common/prepaid-incentive.ts";
import type { AddressInput, SavedAddress } from "../../common/schemas/address.ts";
import { guestCheckoutSchema } from "../../common/schemas/orders.ts";
import { listAddresses } from "../addresses/addresses.data.ts";
import { markFunnelStep } from "../analytics/funnel-count.ts";
import { clientAddress } from "../auth/client-address.ts";
import { requireUser } from "../auth/session.ts";
import { guestCart, type LoadedCart, loadPricedCart } from "../cart/priced-cart.ts";
import { recordGuestCheckout } from "../cart-reminders/left-carts.ts";
import { cachedCodRules, cachedPrepaidIncentive, decideCod } from "../cod/cod-rules.ts";
import { findDeliveryRule } from "../delivery/delivery.data.ts";
import { lookUpPin } from "../delivery/pin-directory.ts";
import type { Deps } from "../deps.ts";
import { razorpayConfig } from "../money/razorpay.ts";
import { rememberSettings } from "../settings/settings.data.ts";
import { MINUTE_MS, requireAllowance } from "../throttles/throttle.ts";
import { validate } from "../validate.ts";

/**
 * A guest's checkout priced with their e-mail, mobile or address tells whether a code was spent by them and
 * whether their orders came back: counted per client, so nobody can ask it of one mobile after another.
 */
export const GUEST_CHECKOUT_LIMITS = { perClient: 60, minutes: 15 };

/** What the checkout page shows: the cart priced exactly as the order will be, addresses, payment choices. */
export function checkoutRoutes(deps: Deps) {
  // The owner's rule, remembered with the catalogue; Place order reads it again inside its transaction.
  const shippingRule = async () => (await rememberSettings(deps)).shipping;
  const summarize = async (
    { cart, pricedFor }: LoadedCart,
    shipping: ShippingRule,
    addresses: SavedAddress[],
    customer: { userId: string } | { guestAddress: AddressInput | null },
  ): Promise<CheckoutSummary> => {
    const pricing = orderPricingOf(cart);
    const [rules, incentive] = await Promise.all([cachedCodRules(deps), cachedPrepaidIncentive(deps)]);
    const razorpayOn = razorpayConfig(deps.env) !== null;
    // Priced by the same pipeline with the way of paying as its input: what Place order will charge either way.
    const onlinePricing = razorpayOn ? orderPricingOf(pricedFor({ method: "razorpay", incentive })) : null;
    const userId = "userId" in customer ? customer.userId : null;
    const guestAddress = "guestAddress" in customer ? customer.guestAddress : null;
    const [delivery, guestDelivery] = await Promise.all([
      addressDelivery(deps, rules, addresses, pricing.totalPaise, userId),
      guestAddress ? deliveryFor(deps, rules, guestAddress, pricing.totalPaise, null) : null,
    ]);
    return {
      pricing,
      onlinePricing,
      images: Object.fromEntries(pricing.lines.map((line) => [line.itemId, imageFor(line.image).small])),
      addresses,
      estimate: estimateDelivery(new Date()),
      payment: {
        cod: {
          enabled: rules.enabled,
          maxOrderPaise: rules.maxOrderPaise,
          available: rules.enabled && pricing.totalPaise <= rules.maxOrderPaise,
        },
        razorpay: {
          enabled: razorpayOn,
          offer: onlinePricing
            ? prepaidOffer(incentive, pricing.totalPaise - onlinePricing.totalPaise)
            : null,
        },
      },
      freeShippingMinPaise: shipping.freeShippingMinPaise,
      freeShippingBasis: shipping.freeShippingBasis,
      delivery,
      guestDelivery,
    };
  };

  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        markFunnelStep(c, "checkout");
        const shipping = await shippingRule();
        const [cart, addresses] = await Promise.all([
          loadPricedCart(deps.db, { kind: "account", userId: user.id }, { shipping }),
          listAddresses(deps.db, user.id),
        ]);
        return c.json(await summarize(cart, shipping, addresses, { userId: user.id }));
      })
      // A guest's cart lives in the browser: it is sent to be priced by the same loader the order uses, with
      // the e-mail and mobile once typed, so the code's uses per customer are counted before Place order, and
      // with the address once used, so cash on delivery is decided for it as Place order will.
      .post("/guest", validate("json", guestCheckoutSchema), async (c) => {
        const { items, discountCode, address, remindMe, remindOnWhatsApp, ...typed } = c.req.valid("json");
        markFunnelStep(c, "checkout");
        if (typed.email || typed.mobile || address) {
          await requireAllowance(
            deps.db,
            `guest-checkout:client:${clientAddress(c, deps.env) ?? "unknown"}`,
            GUEST_CHECKOUT_LIMITS.perClient,
            GUEST_CHECKOUT_LIMITS.minutes * MINUTE_MS,
            (wait) => ({
              code: "too_many_requests",
              message: `Too many checks from here. Please wait ${Math.ceil(wait / 60)} minutes and try again.`,
            }),
          );
        }
        // The order is placed with the address's mobile: that is the one its code is counted against.
        const contact = { ...typed, mobile: address?.phone ?? typed.mobile };
        const shipping = await shippingRule();
        const cart = await loadPricedCart(deps.db, guestCart(items, discountCode, contact), { shipping });
        // A checkout that got as far as an e-mail or a mobile is a cart that can be left behind (decision 089).
        await recordGuestCheckout(deps.db, { ...contact, items, remindMe, remindOnWhatsApp });
        return c.json(await summarize(cart, shipping, [], { guestAddress: address ?? null }));
      })
  );
}

/** For each saved address, whether the order can go there and be paid in cash: the rules placeOrder applies. */
async function addressDelivery(
  deps: Deps,
  rules: CodRules,
  addresses: SavedAddress[],
  totalPaise: number,
  userId: string | null,
): Promise<Record<string, AddressDelivery>> {
  const entries = await Promise.all(
    addresses.map(
      async (address): Promise<[string, AddressDelivery]> => [
        address.id,
        await deliveryFor(deps, rules, address, totalPaise, userId),
      ],
    ),
  );
  return Object.fromEntries(entries);
}

/** Whether the order can go to this address, and be paid there in cash by this customer. */
async function deliveryFor(
  deps: Deps,
  rules: CodRules,
  address: Pick<AddressInput, "pin" | "state" | "phone" | "line1">,
  totalPaise: number,
  userId: string | null,
): Promise<AddressDelivery> {
  const [place, rule] = await Promise.all([lookUpPin(address.pin), findDeliveryRule(deps.db, address.pin)]);
  if (!place) {
    return {
      served: false,
      problem: `PIN code ${address.pin} is not in India Post's directory. Please add the address again with the right PIN code.`,
      codProblem: null,
    };
  }
  if (rule?.rule === "not_served") {
    return { served: false, problem: notServedMessage(place), codProblem: null };
  }
  const cod = await decideCod(deps.db, rules, {
    totalPaise,
    pin: address.pin,
    district: place.district,
    state: address.state,
    customer: { userId, mobile: address.phone, pin: address.pin, line1: address.line1 },
  });
  return { served: true, problem: null, codProblem: cod.available ? null : cod.reason };
}
