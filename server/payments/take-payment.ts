import { and, eq } from "drizzle-orm";
import { formatRupees } from "../../common/money.ts";
import { type OrderStatus, STATUS_LABELS } from "../../common/order-lifecycle.ts";
import { switchedFigures } from "../cod/pay-online-instead.ts";
import type { Tx } from "../db/client.ts";
import { moneyLedger, orderEvents, orders, razorpayOrders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { issueInvoice } from "../invoices/tax-documents.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import {
  closeRazorpayOrders,
  orderWithPayment,
  type PaidOrder,
  recordMoney,
  SOLD_OUT_BEFORE_PAYMENT,
} from "../money/ledger.ts";
import { listRazorpayRefunds, razorpayConfig, refundRazorpayPayment } from "../money/razorpay.ts";
import { enqueueOrderMail } from "../orders/order-mail.ts";
import { takeStockOnPayment } from "../orders/order-status.ts";

export const REFUND_UNAPPLIED_JOB = "refund-unapplied-payment";

export type TakenPayment = {
  order: PaidOrder;
  /** applied: the payment pays the order; refunding: it could not, and is being refunded in full; seen: told before. */
  outcome: "applied" | "refunding" | "seen";
};

/**
 * A verified Razorpay payment, from the browser or the webhook, whichever comes first (docs/decisions/075). It is
 * recorded in the ledger once, under the order's lock, and then either applied to the order as it was opened for
 * (an order waiting for payment, a cash-on-delivery order still waiting for its shopper's answer with the switch
 * open) or, when the order has moved on (edited, confirmed for cash, cancelled, lapsed, already paid), refunded
 * in full by a job, with the shopper told. Never throws for a payment it has taken: Razorpay must stop retrying.
 * Returns null for a Razorpay order this shop never made.
 */
export async function takeRazorpayPayment(
  deps: Deps,
  payment: { razorpayOrderId: string; paymentId: string; via: "browser" | "webhook"; amountPaise?: number },
): Promise<TakenPayment | null> {
  const now = new Date();
  const result = await deps.db.transaction(async (tx) => {
    const [made] = await tx
      .select()
      .from(razorpayOrders)
      .where(eq(razorpayOrders.id, payment.razorpayOrderId));
    if (!made) return null;
    const [order] = await tx
      .select(orderWithPayment)
      .from(orders)
      .where(eq(orders.id, made.orderId))
      .for("update", { of: orders });
    if (!order) return null;
    const [seen] = await tx
      .select({ applied: moneyLedger.applied })
      .from(moneyLedger)
      .where(
        and(eq(moneyLedger.kind, "online_payment"), eq(moneyLedger.razorpayPaymentId, payment.paymentId)),
      );
    if (seen) return { order, outcome: "seen" as const, wake: false };

    // What Razorpay says was captured is what came in; the browser's word stands for the amount asked.
    const amountPaise = payment.amountPaise ?? made.amountPaise;
    const source = payment.via === "browser" ? "confirmed by the browser" : "confirmed by Razorpay";
    let refusal = await whyNotApplicable(tx, order, made, amountPaise);
    // An order paid at checkout takes its stock now (docs/decisions/083); with too little left, the shopper who
    // paid first had it, and this order is cancelled and its payment refunded like any that cannot apply.
    const soldOut = !refusal && made.purpose === "checkout" && !(await takeStockOnPayment(tx, order.id));
    if (soldOut) refusal = SOLD_OUT_BEFORE_PAYMENT;
    const taken: Taken = { order, made, paymentId: payment.paymentId, amountPaise, source, now };
    if (refusal) {
      await refusePayment(tx, taken, refusal, soldOut);
      return { order, outcome: "refunding" as const, wake: true };
    }
    return { order: await applyPayment(tx, taken), outcome: "applied" as const, wake: true };
  });
  if (!result) return null;
  if (result.wake) deps.jobs.wake();
  return { order: result.order, outcome: result.outcome };
}

/** A verified payment under its order's lock, as takeRazorpayPayment read it. */
type Taken = {
  order: PaidOrder;
  made: typeof razorpayOrders.$inferSelect;
  paymentId: string;
  amountPaise: number;
  /** "confirmed by the browser" or "confirmed by Razorpay". */
  source: string;
  now: Date;
};

/** Everything that happens to a payment is told in the order's history by the payment. */
const tellHistory = (
  tx: Tx,
  { order, now }: Taken,
  kind: "status" | "payment",
  toStatus: OrderStatus,
  note: string,
) =>
  tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus,
    kind,
    actor: "payment",
    actorUserId: null,
    note,
    createdAt: now,
  });

/**
 * A payment that cannot apply: recorded unapplied, told, and refunded in full by a job; an order sold out
 * before its payment is cancelled first.
 */
async function refusePayment(tx: Tx, taken: Taken, refusal: string, soldOut: boolean) {
  const { order, made, paymentId, amountPaise, source, now } = taken;
  if (soldOut) {
    await tx
      .update(orders)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(eq(orders.id, order.id));
    await closeRazorpayOrders(tx, order.id, "sold out before payment", now);
    await tellHistory(tx, taken, "status", "cancelled", `Cancelled: ${SOLD_OUT_BEFORE_PAYMENT}`);
  }
  await recordMoney(tx, {
    orderId: order.id,
    kind: "online_payment",
    amountPaise,
    applied: false,
    razorpayOrderId: made.id,
    razorpayPaymentId: paymentId,
    note: refusal,
    createdAt: now,
  });
  await tellHistory(
    tx,
    taken,
    "payment",
    order.status,
    `Payment ${paymentId} of ${formatRupees(amountPaise)} ${source}, but ${refusal}: it is refunded in full automatically`,
  );
  await enqueueJob(tx, {
    kind: REFUND_UNAPPLIED_JOB,
    payload: { paymentId },
    key: `${REFUND_UNAPPLIED_JOB}:${paymentId}`,
  });
  log.warn({ paymentId, order: order.number, refusal }, "payment refunded: not applicable");
}

/**
 * A payment that pays its order: recorded applied, the order confirmed (a cash-on-delivery order switched to
 * online with its new figures), its other Razorpay orders closed, its invoice issued and its mail sent.
 */
async function applyPayment(tx: Tx, taken: Taken): Promise<PaidOrder> {
  const { order, made, paymentId, amountPaise, source, now } = taken;
  const switched = made.purpose === "switch" ? await switchedFigures(tx, order) : null;
  await recordMoney(tx, {
    orderId: order.id,
    kind: "online_payment",
    amountPaise,
    applied: true,
    razorpayOrderId: made.id,
    razorpayPaymentId: paymentId,
    createdAt: now,
  });
  const [row] = await tx
    .update(orders)
    .set({
      razorpayOrderId: made.id,
      updatedAt: now,
      status: "confirmed",
      ...(switched ? { ...switched, paymentMethod: "razorpay" as const, codConfirmBy: null } : {}),
    })
    .where(eq(orders.id, order.id))
    .returning(orderWithPayment);
  if (!row) throw new Error(`order ${order.number} vanished under its lock`);
  // Every other Razorpay order of this one (a second tab's Checkout) can no longer be applied.
  await closeRazorpayOrders(tx, order.id, "paid by another payment", now);
  await tellHistory(
    tx,
    taken,
    "status",
    "confirmed",
    switched
      ? `Paid online instead of cash on delivery, payment ${paymentId} ${source}: no confirmation needed`
      : `Paid online, payment ${paymentId} ${source}`,
  );
  await issueInvoice(tx, row, now);
  // The shopper of a switched order already has its "placed" mail.
  if (!switched) await enqueueOrderMail(tx, order.id, "placed");
  return row;
}

/**
 * Why a payment for this Razorpay order cannot be applied to the order as it stands, in words for its history;
 * null when it can. Read on the order's locked row.
 */
async function whyNotApplicable(
  tx: Tx,
  order: PaidOrder,
  made: typeof razorpayOrders.$inferSelect,
  amountPaise: number,
): Promise<string | null> {
  if (order.paidAt) return "the order was already paid";
  if (made.closedAt) return `the payment was no longer open (${made.closedReason ?? "closed"})`;
  if (made.purpose === "checkout") {
    if (order.status !== "awaiting_payment") {
      return `the order was ${STATUS_LABELS[order.status].toLowerCase()} by then`;
    }
    if (amountPaise !== order.totalPaise) {
      return `it does not match the order's total of ${formatRupees(order.totalPaise)}`;
    }
    return null;
  }
  if (order.paymentMethod !== "cod" || order.status !== "placed" || order.codConfirmBy === null) {
    return `the order was ${STATUS_LABELS[order.status].toLowerCase()} by then`;
  }
  const switched = await switchedFigures(tx, order);
  if (!switched || switched.totalPaise !== amountPaise) {
    return `it does not match the order's amount to pay online`;
  }
  return null;
}

/**
 * The refund job of a payment that could not be applied: the whole amount goes back through Razorpay's refunds
 * API, once (the capture row is locked for the call, a refund already made under its receipt is recorded
 * rather than made again, and the ledger takes one such refund per payment), and the shopper is told by mail.
 * Razorpay away or not configured: the job throws and is tried again later.
 */
export async function refundUnappliedPayment(deps: Deps, paymentId: string) {
  const config = razorpayConfig(deps.env);
  if (!config) throw new Error("Razorpay is not configured: the payment cannot be refunded yet");
  const refunded = await deps.db.transaction(async (tx) => {
    const [capture] = await tx
      .select()
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.kind, "online_payment"),
          eq(moneyLedger.razorpayPaymentId, paymentId),
          eq(moneyLedger.applied, false),
        ),
      )
      .for("update");
    if (!capture) return false;
    const [done] = await tx
      .select({ id: moneyLedger.id })
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.kind, "online_refund"),
          eq(moneyLedger.razorpayPaymentId, paymentId),
          eq(moneyLedger.applied, false),
        ),
      );
    if (done) return false;
    // Razorpay's receipt is at most 40 characters: the payment id (18) names this refund uniquely.
    const receipt = `return-${paymentId}`;
    const earlier = (await listRazorpayRefunds(config, paymentId)).find((each) => each.receipt === receipt);
    const refund =
      earlier ??
      (await refundRazorpayPayment(config, { paymentId, amountPaise: capture.amountPaise, receipt }));
    const now = new Date();
    await recordMoney(tx, {
      orderId: capture.orderId,
      kind: "online_refund",
      amountPaise: capture.amountPaise,
      applied: false,
      razorpayOrderId: capture.razorpayOrderId,
      razorpayPaymentId: paymentId,
      razorpayRefundId: refund.id,
      note: "Refunded in full: the payment could not be applied to the order",
      createdAt: now,
    });
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, capture.orderId));
    await tx.insert(orderEvents).values({
      orderId: capture.orderId,
      fromStatus: order?.status ?? null,
      toStatus: order?.status ?? "cancelled",
      kind: "payment",
      actor: "payment",
      actorUserId: null,
      note: `Payment ${paymentId} of ${formatRupees(capture.amountPaise)} refunded in full through Razorpay (${refund.id})`,
      createdAt: now,
    });
    await enqueueOrderMail(tx, capture.orderId, "payment_returned");
    return true;
  });
  if (refunded) deps.jobs.wake();
}
