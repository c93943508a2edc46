import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { RazorpayCheckout } from "../../common/orders.ts";
import type { verifyPaymentSchema } from "../../common/schemas/orders.ts";
import type { OrderRow } from "../db/schema.ts";
import { orders, razorpayOrders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { type PaidOrder, recordRazorpayOrder, SOLD_OUT_BEFORE_PAYMENT } from "../money/ledger.ts";
import { createRazorpayOrder, razorpayConfig, verifyPaymentSignature } from "../money/razorpay.ts";
import {
  changeOrderStatus,
  lapseUnpaidOrder,
  paymentDeadline,
  soldOutLines,
} from "../orders/order-status.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { takeRazorpayPayment } from "./take-payment.ts";

const notAwaitingPayment = () =>
  httpError(409, "not_awaiting_payment", "This order is not waiting for an online payment.");

function requireRazorpay(deps: Deps) {
  const config = razorpayConfig(deps.env);
  if (!config) throw httpError(503, "payment_unavailable", "Online payment is not available at the moment.");
  return config;
}

/**
 * The Razorpay Checkout options for an order waiting for online payment, creating its Razorpay order the
 * first time. The caller has already decided the order is the asker's (their account, or a guest's signed
 * link); `email` is who pays, for Checkout's prefill.
 */
export async function openOrderPayment(
  deps: Deps,
  found: OrderRow,
  email: string,
): Promise<RazorpayCheckout> {
  const config = requireRazorpay(deps);
  let order = found;
  if (order.paymentMethod !== "razorpay" || order.status !== "awaiting_payment") throw notAwaitingPayment();
  await refuseSoldOut(deps, order);
  if (!order.razorpayOrderId) {
    // Past its first hold without Checkout ever opened, the order lapses now rather than at the next sweep.
    const deadline = paymentDeadline(deps.env, order);
    if (deadline.at <= new Date() && (await lapseUnpaidOrder(deps, order.id))) {
      throw httpError(
        409,
        "payment_window_over",
        `This order was not paid within ${deadline.minutes} minutes, so it has been cancelled. Please place it again.`,
      );
    }
    const created = await createRazorpayOrder(config, {
      amountPaise: order.totalPaise,
      receipt: order.number,
      orderId: order.id,
    });
    // Two tabs asking at once: the first id stored wins, the other Razorpay order is simply never paid.
    // Only while the order still waits: one that lapsed meanwhile gets no Checkout.
    const stored = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(orders)
        .set({ razorpayOrderId: created.id })
        .where(
          and(eq(orders.id, order.id), isNull(orders.razorpayOrderId), eq(orders.status, "awaiting_payment")),
        )
        .returning();
      // Recorded with the order's change: a payment names this Razorpay order, and is found through it.
      if (row) {
        await recordRazorpayOrder(tx, {
          id: created.id,
          orderId: row.id,
          purpose: "checkout",
          amountPaise: row.totalPaise,
        });
      }
      return row;
    });
    order = stored ?? (await deps.db.select().from(orders).where(eq(orders.id, order.id)))[0] ?? order;
    if (order.status !== "awaiting_payment") throw notAwaitingPayment();
  }
  const elapsedSeconds = Math.floor((Date.now() - order.createdAt.getTime()) / 1000);
  return {
    keyId: config.keyId,
    scriptUrl: config.checkoutUrl,
    razorpayOrderId: order.razorpayOrderId ?? "",
    amountPaise: order.totalPaise,
    currency: "INR",
    shopName: (await withOwnersShopName(deps.db, deps.env)).SHOP_NAME,
    description: `Order ${order.number}`,
    prefill: { name: order.shipName, email, contact: order.shipPhone },
    timeoutSeconds: Math.max(60, deps.env.PAYMENT_WINDOW_MINUTES * 60 - elapsedSeconds),
  };
}

/**
 * An unpaid order holds no stock (docs/decisions/083): when what it asks for has been bought meanwhile, the
 * shopper learns it before paying, and the order is cancelled so its household may order what is left.
 */
async function refuseSoldOut(deps: Deps, order: OrderRow) {
  const gone = await soldOutLines(deps.db, order.id);
  if (gone.length === 0) return;
  try {
    await changeOrderStatus(
      deps,
      { orderId: order.id },
      {
        to: "cancelled",
        actor: "system",
        actorUserId: null,
        note: `Cancelled before payment: ${SOLD_OUT_BEFORE_PAYMENT}`,
        onlyIf: (locked) => locked.status === "awaiting_payment" && locked.paidAt === null,
      },
    );
  } catch (error) {
    // Paid or cancelled meanwhile: the order is no longer waiting, which the caller's answer says.
    if ((error as { status?: number }).status !== 409) throw error;
    throw notAwaitingPayment();
  }
  throw httpError(
    409,
    "out_of_stock",
    `${gone.join(", ")} sold out before this order was paid, so it has been cancelled. Nothing was charged.`,
  );
}

/**
 * What the browser reports after Razorpay Checkout, checked against the Razorpay order this shop created for
 * this order (never the one the browser names). Returns the order as it is now.
 */
export async function verifyOrderPayment(
  deps: Deps,
  order: PaidOrder,
  payment: z.infer<typeof verifyPaymentSchema>,
): Promise<PaidOrder> {
  const config = requireRazorpay(deps);
  // Any Razorpay order this shop made for this order: one closed since is still a payment to take (and refund).
  const [made] = await deps.db
    .select({ id: razorpayOrders.id })
    .from(razorpayOrders)
    .where(and(eq(razorpayOrders.id, payment.razorpayOrderId), eq(razorpayOrders.orderId, order.id)));
  if (
    !made ||
    !verifyPaymentSignature(config.keySecret, made.id, payment.razorpayPaymentId, payment.razorpaySignature)
  ) {
    throw httpError(400, "invalid_payment_signature", "The payment could not be verified.");
  }
  const taken = await takeRazorpayPayment(deps, {
    razorpayOrderId: made.id,
    paymentId: payment.razorpayPaymentId,
    via: "browser",
  });
  return taken?.order ?? order;
}
