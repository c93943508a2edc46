import { and, asc, desc, eq, isNull, lt, sql } from "drizzle-orm";
import {
  checkTransition,
  type OrderActor,
  type OrderStatus,
  STATUS_LABELS,
} from "../../common/order-lifecycle.ts";
import { combos, orderEvents, orderLines, orders, products } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { razorpayConfig, refundRazorpayPayment } from "../payments/razorpay.ts";
import { type OrderMailKind, sendOrderMail } from "./order-mail.ts";
import { lifecycleOf, type OrderRow } from "./orders.data.ts";
import type { Tx } from "./pricing.ts";

const MAIL_ON: Partial<Record<OrderStatus, OrderMailKind>> = {
  shipped: "shipped",
  delivered: "delivered",
  cancelled: "cancelled",
  refunded: "refunded",
};

export type StatusChange = {
  to: OrderStatus;
  actor: OrderActor;
  actorUserId: string | null;
  note?: string | null;
  courier?: string;
  trackingNumber?: string;
  refundReference?: string;
  now?: Date;
};

/**
 * Puts the stock of a cancelled order back on the shelf, locking rows in the order that placing an order
 * takes them (products, then combos, each by key), so a cancellation and an order never deadlock.
 */
async function restock(tx: Tx, orderId: string) {
  const lines = await tx
    .select({ itemId: orderLines.itemId, kind: orderLines.kind, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(desc(orderLines.kind), asc(orderLines.itemId));
  for (const line of lines) {
    if (line.kind === "product") {
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${line.quantity}` })
        .where(eq(products.slug, line.itemId));
    } else {
      await tx
        .update(combos)
        .set({ stock: sql`${combos.stock} + ${line.quantity}` })
        .where(eq(combos.id, line.itemId));
    }
  }
}

/**
 * Moves an order along the lifecycle, if the table in common/order-lifecycle.ts allows it for this actor now:
 * locks the order, checks, applies side effects (stock back on cancel, refund through Razorpay), records the
 * event, then e-mails the customer. `where` picks the order (by id, or by number and owner for a customer).
 */
export async function changeOrderStatus(
  deps: Deps,
  where: { orderId: string } | { number: string; userId?: string },
  change: StatusChange,
): Promise<OrderRow> {
  const now = change.now ?? new Date();
  const updated = await deps.db.transaction(async (tx) => {
    const condition =
      "orderId" in where
        ? eq(orders.id, where.orderId)
        : where.userId
          ? and(eq(orders.number, where.number), eq(orders.userId, where.userId))
          : eq(orders.number, where.number);
    const [order] = await tx.select().from(orders).where(condition).for("update");
    if (!order) throw notFound("There is no such order.");

    const check = checkTransition(lifecycleOf(order), change.to, change.actor, now);
    if (!check.ok) throw httpError(409, "invalid_transition", check.reason);

    const set: Partial<typeof orders.$inferInsert> = { status: change.to, updatedAt: now };
    let note = change.note?.trim() || null;
    if (change.to === "shipped") {
      if (!change.courier || !change.trackingNumber) {
        throw httpError(400, "invalid_request", "courier and trackingNumber are required to ship an order.");
      }
      set.courier = change.courier;
      set.trackingNumber = change.trackingNumber;
      set.shippedAt = now;
      note = [`${change.courier}, tracking ${change.trackingNumber}`, note].filter(Boolean).join(". ");
    }
    if (change.to === "delivered" && order.status === "shipped") set.deliveredAt = now;
    if (change.to === "cancelled") {
      set.cancelledAt = now;
      await restock(tx, order.id);
    }
    if (change.to === "refunded") {
      const reference = await refund(deps, order, change.refundReference);
      set.refundReference = reference;
      note = [`Refund ${reference}`, note].filter(Boolean).join(". ");
    }

    const [row] = await tx.update(orders).set(set).where(eq(orders.id, order.id)).returning();
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: change.to,
      actor: change.actor,
      actorUserId: change.actorUserId,
      note,
      createdAt: now,
    });
    if (!row) throw notFound("There is no such order.");
    return row;
  });

  const mail = MAIL_ON[change.to];
  if (mail) await sendOrderMail(deps, updated.id, mail);
  return updated;
}

/**
 * A paid online order is refunded through Razorpay, to the original method; a cash-on-delivery refund is
 * paid by UPI or bank transfer by staff, who enter its reference. Runs while the order row is locked,
 * so two clicks cannot refund twice.
 */
async function refund(deps: Deps, order: OrderRow, reference: string | undefined): Promise<string> {
  if (order.paymentMethod === "razorpay" && order.razorpayPaymentId) {
    const config = razorpayConfig(deps.env);
    if (!config) {
      throw httpError(
        503,
        "payment_unavailable",
        "Razorpay is not configured, so the refund cannot be made.",
      );
    }
    const result = await refundRazorpayPayment(config, {
      paymentId: order.razorpayPaymentId,
      amountPaise: order.totalPaise,
      receipt: order.number,
    });
    return result.id;
  }
  if (!reference) {
    throw httpError(
      400,
      "invalid_request",
      "refundReference: enter the UPI or bank transfer reference of the refund",
      {
        refundReference: "enter the UPI or bank transfer reference of the refund",
      },
    );
  }
  return reference;
}

/**
 * Records a verified Razorpay payment, from the browser or the webhook, whichever comes first. A second
 * confirmation of the same payment changes nothing. A payment for an order that lapsed meanwhile is kept
 * on the order (for the refund) and noted in its history. Returns null for an unknown Razorpay order.
 */
export async function confirmRazorpayPayment(
  deps: Deps,
  payment: { razorpayOrderId: string; paymentId: string; via: "browser" | "webhook"; amountPaise?: number },
): Promise<{ order: OrderRow; changed: boolean } | null> {
  const now = new Date();
  const result = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.razorpayOrderId, payment.razorpayOrderId))
      .for("update");
    if (!order) return null;
    if (order.razorpayPaymentId) return { order, changed: false, confirmed: false };
    if (payment.amountPaise !== undefined && payment.amountPaise !== order.totalPaise) {
      log.error(
        { paymentId: payment.paymentId, amountPaise: payment.amountPaise, order: order.number },
        "Razorpay payment does not match the order's total",
      );
      return { order, changed: false, confirmed: false };
    }
    const source = payment.via === "browser" ? "confirmed by the browser" : "confirmed by Razorpay";
    const confirms = order.status === "awaiting_payment";
    const [row] = await tx
      .update(orders)
      .set({
        razorpayPaymentId: payment.paymentId,
        paidAt: now,
        updatedAt: now,
        ...(confirms ? { status: "confirmed" as const } : {}),
      })
      .where(and(eq(orders.id, order.id), isNull(orders.razorpayPaymentId)))
      .returning();
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: confirms ? "confirmed" : order.status,
      actor: "payment",
      actorUserId: null,
      note: confirms
        ? `Paid online, payment ${payment.paymentId} ${source}`
        : `Payment ${payment.paymentId} arrived after the order was ${STATUS_LABELS[order.status].toLowerCase()}; refund due`,
      createdAt: now,
    });
    return { order: row ?? order, changed: true, confirmed: confirms };
  });
  if (!result) return null;
  if (result.confirmed) await sendOrderMail(deps, result.order.id, "placed");
  return { order: result.order, changed: result.changed };
}

/**
 * Online orders still unpaid after PAYMENT_WINDOW_MINUTES are cancelled by the shop and their stock released,
 * so an abandoned payment never holds the last jar. Returns how many lapsed.
 */
export async function expireUnpaidOrders(deps: Deps, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.env.PAYMENT_WINDOW_MINUTES * 60_000);
  const stale = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "awaiting_payment"), lt(orders.createdAt, cutoff)));
  let expired = 0;
  for (const { id } of stale) {
    try {
      await changeOrderStatus(
        deps,
        { orderId: id },
        {
          to: "cancelled",
          actor: "system",
          actorUserId: null,
          note: `Not paid within ${deps.env.PAYMENT_WINDOW_MINUTES} minutes`,
          now,
        },
      );
      expired++;
    } catch (error) {
      // Paid or cancelled in the meantime: nothing to expire.
      if ((error as { status?: number }).status !== 409) throw error;
    }
  }
  return expired;
}

/** Checks for lapsed unpaid orders every minute while the shop runs; returns the function that stops it. */
export function scheduleUnpaidOrderExpiry(deps: Deps): () => void {
  const timer = setInterval(() => {
    expireUnpaidOrders(deps).catch((error) =>
      log.error({ err: serializeError(error) }, "expiring unpaid orders failed"),
    );
  }, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
