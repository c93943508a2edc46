import { asc, eq } from "drizzle-orm";
import { type ResolvedLine, type ShippingRule, summarizeCart } from "../../common/cart.ts";
import type { PricedCode } from "../../common/discount.ts";
import { formatDateTime } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import { orderPricingOf, prepaidColumns } from "../../common/order-pricing.ts";
import type { RazorpayCheckout } from "../../common/orders.ts";
import { PREPAID_LINE_LABEL } from "../../common/prepaid-incentive.ts";
import type { DbOrTx, Tx } from "../db/client.ts";
import { codPaymentSwitches, type OrderRow, orderEvents, orderLines, orders, users } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { closeRazorpayOrders, openSwitchOf, recordRazorpayOrder } from "../money/ledger.ts";
import { createRazorpayOrder, razorpayConfig } from "../money/razorpay.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { readPrepaidIncentive } from "./cod-rules.ts";

const paymentDown = () =>
  httpError(
    503,
    "payment_unavailable",
    "Online payment is not available at the moment. Your order is unchanged.",
  );

/** Only a cash-on-delivery order still waiting for its shopper's confirmation can be switched. */
function refuseUnlessWaiting(order: OrderRow) {
  if (order.paymentMethod === "cod" && order.status === "placed" && order.codConfirmBy !== null) return;
  throw httpError(
    409,
    "not_waiting_for_confirmation",
    `Order ${order.number} is no longer waiting for confirmation, so it cannot be switched to paying online.`,
  );
}

/**
 * The order priced as paid online by the one pipeline (common/cart.ts summarizeCart): its lines at the prices
 * it was placed at, its code's discount as it was given, its shipping fee as charged, and the owner's prepaid
 * incentive as it stands now.
 */
async function priceOnline(tx: DbOrTx, order: OrderRow) {
  const rows = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.position));
  const lines = rows.map(
    (line): ResolvedLine => ({
      id: line.itemId,
      kind: line.kind,
      quantity: line.quantity,
      name: line.name,
      href: "",
      image: null,
      imageKey: line.image,
      unitPricePaise: line.unitPricePaise,
      addedPricePaise: line.unitPricePaise,
      // Its stock is already taken by the order.
      availability: "available",
      stock: line.quantity,
      perishable: line.perishable,
    }),
  );
  // The code was spent when the order was placed: its amount is kept as it was, not decided again.
  const discount: PricedCode | null = order.discountCode
    ? {
        code: order.discountCode,
        description: order.discountCode,
        percent: 0,
        amountOffPaise: order.discountPaise,
        minAmountPaise: 0,
        active: true,
        problem: null,
      }
    : null;
  const shipping: ShippingRule = {
    freeShippingMinPaise: order.shippingPaise === 0 ? 0 : Number.MAX_SAFE_INTEGER,
    shippingFeePaise: order.shippingPaise,
    freeShippingBasis: "after_discount",
  };
  const incentive = await readPrepaidIncentive(tx);
  return orderPricingOf(
    summarizeCart({ lines, discount, shipping, payment: { method: "razorpay", incentive } }),
  );
}

/**
 * What the link's page offers: the amount due paid online and what that saves, while the order waits for
 * confirmation and Razorpay is configured; null otherwise.
 */
export async function payOnlineOffer(
  deps: Deps,
  order: OrderRow,
): Promise<{ totalPaise: number; savingPaise: number } | null> {
  if (!razorpayConfig(deps.env)) return null;
  if (order.paymentMethod !== "cod" || order.status !== "placed" || order.codConfirmBy === null) return null;
  const pricing = await priceOnline(deps.db, order);
  return { totalPaise: pricing.totalPaise, savingPaise: order.totalPaise - pricing.totalPaise };
}

/**
 * "Pay online instead" on the confirmation link: the Razorpay order for the amount due paid online, made once
 * under the order's row lock (a double tap waits, then opens the same one), with the switch recorded in the
 * order's history. The order stays cash on delivery, waiting for confirmation, until the payment is verified
 * (order-status.ts confirmRazorpayPayment applies the switch). Razorpay down: 503, nothing written.
 */
export async function openPayOnlineInstead(deps: Deps, orderId: string): Promise<RazorpayCheckout> {
  const config = razorpayConfig(deps.env);
  if (!config) throw paymentDown();
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) throw notFound("There is no such order.");
    refuseUnlessWaiting(order);
    const [earlier] = await tx
      .select()
      .from(codPaymentSwitches)
      .where(eq(codPaymentSwitches.orderId, orderId));
    // A switch closed since (staff changed the order after its payment window) is opened afresh at today's figures.
    const open = earlier ? await openSwitchOf(tx, orderId) : null;
    let switched = earlier && open?.id === earlier.razorpayOrderId ? earlier : undefined;
    if (!switched) {
      const pricing = await priceOnline(tx, order);
      const created = await createRazorpayOrder(config, {
        amountPaise: pricing.totalPaise,
        receipt: order.number,
        orderId: order.id,
      }).catch((error: unknown) => {
        // The gateway did not answer or refused: the order is left exactly as it was.
        if ((error as { status?: number }).status === 502) throw paymentDown();
        throw error;
      });
      const figures = {
        razorpayOrderId: created.id,
        shippingPaise: pricing.shippingPaise,
        ...prepaidColumns(pricing),
        totalPaise: pricing.totalPaise,
        createdAt: new Date(),
      };
      [switched] = await tx
        .insert(codPaymentSwitches)
        .values({ orderId, ...figures })
        .onConflictDoUpdate({ target: codPaymentSwitches.orderId, set: figures })
        .returning();
      await recordRazorpayOrder(tx, {
        id: created.id,
        orderId,
        purpose: "switch",
        amountPaise: pricing.totalPaise,
      });
      await tx.update(orders).set({ razorpayOrderId: created.id }).where(eq(orders.id, orderId));
      const saving = pricing.prepaid
        ? ` (${PREPAID_LINE_LABEL.toLowerCase()} saves ${formatRupees(pricing.prepaid.amountPaise)}${pricing.prepaid.kind === "free_shipping" ? ": free shipping" : ""})`
        : "";
      await tx.insert(orderEvents).values({
        orderId,
        fromStatus: order.status,
        toStatus: order.status,
        actor: "customer",
        actorUserId: null,
        note: `Chose to pay online instead from the confirmation link: ${formatRupees(pricing.totalPaise)} to pay${saving}, Razorpay order ${created.id}. Cash on delivery until it is paid.`,
      });
    }
    if (!switched) throw new Error("The switch to online payment was not written.");
    const [account] = order.userId
      ? await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId))
      : [];
    return {
      keyId: config.keyId,
      scriptUrl: config.checkoutUrl,
      razorpayOrderId: switched.razorpayOrderId,
      amountPaise: switched.totalPaise,
      currency: "INR",
      shopName: (await withOwnersShopName(tx, deps.env)).SHOP_NAME,
      description: `Order ${order.number}`,
      prefill: {
        name: order.shipName,
        email: order.guestEmail ?? account?.email ?? "",
        contact: order.shipPhone,
      },
      timeoutSeconds: deps.env.PAYMENT_WINDOW_MINUTES * 60,
    };
  });
}

/**
 * Applied by confirmRazorpayPayment, on the order's locked row, when the payment of a switch arrives while the
 * order still waits for confirmation: it becomes an order paid online, with the figures priced for the
 * switch, confirmed and on its way to packing. Returns the figures, or null when this is not a switch.
 */
export async function switchedFigures(tx: Tx, order: OrderRow) {
  if (order.paymentMethod !== "cod" || !order.razorpayOrderId) return null;
  const [switched] = await tx
    .select()
    .from(codPaymentSwitches)
    .where(eq(codPaymentSwitches.orderId, order.id));
  if (!switched || switched.razorpayOrderId !== order.razorpayOrderId) return null;
  return {
    shippingPaise: switched.shippingPaise,
    prepaidDiscountPaise: switched.prepaidDiscountPaise,
    prepaidShippingWaivedPaise: switched.prepaidShippingWaivedPaise,
    totalPaise: switched.totalPaise,
  };
}

/**
 * An order whose shopper opened "pay online instead" is about to change (staff edit it or confirm it for cash,
 * the shopper confirms or cancels, the shop lapses it): the payment under way can no longer be applied as it was
 * opened. Staff wait while the shopper may still be paying (409, in words staff act on); anyone else, and staff
 * once the payment window is over, closes the switch first, so a payment that still comes is refunded in full
 * automatically (docs/decisions/075). Call on the order's locked row.
 */
export async function settleOpenSwitch(
  tx: Tx,
  env: Deps["env"],
  order: OrderRow,
  by: "staff" | "shopper" | "shop",
  reason: string,
  now = new Date(),
) {
  const open = await openSwitchOf(tx, order.id);
  if (!open) return;
  const windowEnds = new Date(open.createdAt.getTime() + env.PAYMENT_WINDOW_MINUTES * 60_000);
  if (by === "staff" && windowEnds > now) {
    throw httpError(
      409,
      "shopper_paying_online",
      `The shopper is paying online for order ${order.number} (started ${formatDateTime(open.createdAt)}). Try again after ${formatDateTime(windowEnds)}, when the payment has come in or the window has closed.`,
    );
  }
  await closeRazorpayOrders(tx, order.id, reason, now);
}
