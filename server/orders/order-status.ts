import { and, asc, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { COD_REFUND_METHOD_LABELS, type CodRefundMethod } from "../../common/cod.ts";
import {
  checkTransition,
  type OrderActor,
  type OrderMailKind,
  type OrderStatus,
} from "../../common/order-lifecycle.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { settleOpenSwitch } from "../cod/pay-online-instead.ts";
import type { Tx } from "../db/client.ts";
import type { OrderRow } from "../db/schema.ts";
import { combos, orderEvents, orderLines, orderRto, orders, products } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { issueCreditNote, issueInvoice } from "../invoices/tax-documents.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import {
  closeRazorpayOrders,
  orderMoney,
  orderWithPayment,
  type PaidOrder,
  recordMoney,
} from "../money/ledger.ts";
import { razorpayConfig, refundRazorpayPayment } from "../money/razorpay.ts";
import { cancelShipmentFirst } from "./cancel-parcel.ts";
import { enqueueOrderMail } from "./order-mail.ts";
import { lifecycleOf } from "./orders.data.ts";

const MAIL_ON: Partial<Record<OrderStatus, OrderMailKind>> = {
  shipped: "shipped",
  delivered: "delivered",
  cancelled: "cancelled",
  returned: "returned",
  refunded: "refunded",
};

export type StatusChange = {
  to: OrderStatus;
  actor: OrderActor;
  actorUserId: string | null;
  note?: string | null;
  courier?: string;
  trackingNumber?: string;
  /** For a courier outside the list: the page where the parcel is followed. */
  trackingUrl?: string | null;
  refundReference?: string;
  /** How a refund without a gateway (cash on delivery) reached the shopper. */
  refundMethod?: CodRefundMethod;
  now?: Date;
  /** Checked on the locked row: when false the change is refused (409), as if the lifecycle forbade it. */
  onlyIf?: (order: PaidOrder) => boolean;
  /** The event's note, from the locked row, when it depends on the order's state. */
  noteFor?: (order: PaidOrder) => string;
  /** A staff member's change, recorded in the audit log with the change. */
  audit?: AuditActor;
  /** Put the goods back on the shelf; cancelling always does. */
  restock?: boolean;
  /**
   * A parcel returned to origin: what it cost both ways, recorded with the move (docs/decisions/062). The move
   * is refused without it, so every returned_to_origin order has its row.
   */
  rto?: { source: "manual" | "tracking"; forwardPaise: number; returnPaise: number };
};

/** An order's lines in the order placing an order locks stock rows: products, then combos, each by key. */
function linesInLockOrder(tx: Tx, orderId: string) {
  return tx
    .select({ itemId: orderLines.itemId, kind: orderLines.kind, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(desc(orderLines.kind), asc(orderLines.itemId));
}

/**
 * Takes the stock of an order paid online, when its payment is captured (an unpaid order holds none, so the
 * last units go to whoever pays first: docs/decisions/083). All or nothing: false, and no stock taken, when any
 * line has fewer units left than it asks for.
 */
export async function takeStockOnPayment(tx: Tx, orderId: string): Promise<boolean> {
  const lines = await linesInLockOrder(tx, orderId);
  class Shortfall extends Error {}
  try {
    // A savepoint: a line short after others were taken gives those back too.
    await tx.transaction(async (savepoint) => {
      for (const line of lines) {
        const taken =
          line.kind === "product"
            ? await savepoint
                .update(products)
                .set({ stock: sql`${products.stock} - ${line.quantity}` })
                .where(and(eq(products.slug, line.itemId), sql`${products.stock} >= ${line.quantity}`))
                .returning({ id: products.slug })
            : await savepoint
                .update(combos)
                .set({ stock: sql`${combos.stock} - ${line.quantity}` })
                .where(and(eq(combos.id, line.itemId), sql`${combos.stock} >= ${line.quantity}`))
                .returning({ id: combos.id });
        if (taken.length === 0) throw new Shortfall();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof Shortfall) return false;
    throw error;
  }
}

/** The names of an order's lines with fewer units left than they ask for, read without a lock. */
export async function soldOutLines(db: Deps["db"], orderId: string): Promise<string[]> {
  const rows = await db
    .select({ name: orderLines.name })
    .from(orderLines)
    .leftJoin(products, and(eq(orderLines.kind, "product"), eq(products.slug, orderLines.itemId)))
    .leftJoin(combos, and(eq(orderLines.kind, "combo"), eq(combos.id, orderLines.itemId)))
    .where(
      and(
        eq(orderLines.orderId, orderId),
        sql`coalesce(${products.stock}, ${combos.stock}, 0) < ${orderLines.quantity}`,
      ),
    )
    .orderBy(asc(orderLines.position));
  return rows.map((row) => row.name);
}

/**
 * Puts the stock of a cancelled order back on the shelf, locking rows in the order that placing an order
 * takes them (products, then combos, each by key), so a cancellation and an order never deadlock.
 */
export async function restock(tx: Tx, orderId: string) {
  const lines = await linesInLockOrder(tx, orderId);
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
 * event, and queues the customer's e-mail with it. `where` picks the order (by id, or by number and owner for a customer).
 */
export async function changeOrderStatus(
  deps: Deps,
  where: { orderId: string } | { number: string; userId?: string },
  change: StatusChange,
): Promise<PaidOrder> {
  const now = change.now ?? new Date();
  const condition = orderCondition(where);
  if (change.to === "cancelled") await cancelShipmentIfCancellable(deps, condition, change, now);
  const updated = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select(orderWithPayment)
      .from(orders)
      .where(condition)
      .for("update", { of: orders });
    if (!order) throw notFound("There is no such order.");

    checkChange(order, change, now);

    const set: Partial<typeof orders.$inferInsert> = { status: change.to, updatedAt: now };
    let note = (change.noteFor?.(order) ?? change.note)?.trim() || null;
    if (change.to === "shipped") note = shipWith(change, set, note, now);
    if (change.to === "delivered" && order.status === "shipped") {
      set.deliveredAt = now;
      // The courier took the cash at the door: what it owes the shop until its remittance comes.
      if (order.paymentMethod === "cod") await recordCashCollected(tx, order, now);
    }
    if (change.to === "confirmed" || change.to === "cancelled") {
      await settleOpenSwitch(
        tx,
        deps.env,
        order,
        change.actor === "admin" ? "staff" : change.actor === "customer" ? "shopper" : "shop",
        change.to === "confirmed" ? "confirmed for cash on delivery" : "order cancelled",
        now,
      );
    }
    // A cancelled order takes no payment: one still under way (a second tab's Checkout) is refunded when it comes.
    if (change.to === "cancelled") await closeRazorpayOrders(tx, order.id, "order cancelled", now);
    if (change.to === "cancelled") set.cancelledAt = now;
    // An order still waiting for its payment never took stock (it is taken at capture), so it gives none back.
    if ((change.to === "cancelled" || change.restock) && order.status !== "awaiting_payment") {
      await restock(tx, order.id);
    }
    if (change.to === "refunded") note = await refundWith(deps, tx, order, change, set, note, now);

    const [row] = await tx.update(orders).set(set).where(eq(orders.id, order.id)).returning(orderWithPayment);
    if (change.to === "returned_to_origin" && change.rto) await recordRto(tx, order, change.rto, change, now);
    // The tax invoice is issued when the order is confirmed, and reversed by a credit note when an invoiced
    // order is cancelled or its goods come back (docs/decisions/038), in this transaction.
    if (change.to === "confirmed") await issueInvoice(tx, order, now);
    if (change.to === "cancelled") await issueCreditNote(tx, order, "Order cancelled", now);
    if (change.to === "returned") await issueCreditNote(tx, order, "Goods returned", now);
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
    if (change.audit) await auditStatusChange(tx, change.audit, order, row, note);
    const mail = MAIL_ON[change.to];
    if (mail) await enqueueOrderMail(tx, order.id, mail);
    return row;
  });

  if (MAIL_ON[change.to]) deps.jobs.wake();
  return updated;
}

/** The order `where` picks: by id, or by number (and owner, for a customer). */
function orderCondition(where: { orderId: string } | { number: string; userId?: string }) {
  return "orderId" in where
    ? eq(orders.id, where.orderId)
    : where.userId
      ? and(eq(orders.number, where.number), eq(orders.userId, where.userId))
      : eq(orders.number, where.number);
}

/**
 * A parcel booked with a courier is cancelled at the aggregator first (docs/decisions/052), and only for an
 * order that may be cancelled now; changeOrderStatus's transaction checks again under the lock.
 */
async function cancelShipmentIfCancellable(
  deps: Deps,
  condition: ReturnType<typeof orderCondition>,
  change: StatusChange,
  now: Date,
) {
  const [current] = await deps.db.select(orderWithPayment).from(orders).where(condition);
  if (current && checkTransition(lifecycleOf(current), "cancelled", change.actor, now).ok) {
    await cancelShipmentFirst(deps, current.id);
  }
}

function recordCashCollected(tx: Tx, order: PaidOrder, now: Date) {
  return recordMoney(tx, {
    orderId: order.id,
    kind: "cash_collected",
    amountPaise: order.totalPaise,
    reference: order.trackingNumber,
    note: `Collected by ${order.courier ?? "the courier"} on delivery`,
    createdAt: now,
  });
}

/** The lifecycle's rules, a return to origin's costs, and the caller's own condition: 409 when one fails. */
function checkChange(order: PaidOrder, change: StatusChange, now: Date) {
  const check = checkTransition(lifecycleOf(order), change.to, change.actor, now);
  if (!check.ok) throw httpError(409, "invalid_transition", check.reason);
  if (change.to === "returned_to_origin" && !change.rto) {
    throw httpError(
      409,
      "invalid_transition",
      "Record a return to origin with what the parcel cost both ways (Returned to origin, on the order page).",
    );
  }
  if (change.onlyIf && !change.onlyIf(order)) {
    throw httpError(409, "invalid_transition", "The order changed in the meantime.");
  }
}

/** A shipped order's courier and tracking number; the note names them. */
function shipWith(
  change: StatusChange,
  set: Partial<typeof orders.$inferInsert>,
  note: string | null,
  now: Date,
): string {
  if (!change.courier || !change.trackingNumber) {
    throw httpError(400, "invalid_request", "courier and trackingNumber are required to ship an order.");
  }
  set.courier = change.courier;
  set.trackingNumber = change.trackingNumber;
  set.trackingUrl = change.trackingUrl ?? null;
  set.shippedAt = now;
  note = [`${change.courier}, tracking ${change.trackingNumber}`, note].filter(Boolean).join(". ");
  return note;
}

/** A refund paid (through Razorpay, or by hand for cash) and booked in the ledger; the note names it. */
async function refundWith(
  deps: Deps,
  tx: Tx,
  order: PaidOrder,
  change: StatusChange,
  set: Partial<typeof orders.$inferInsert>,
  note: string | null,
  now: Date,
): Promise<string> {
  // Cash came in by hand, so it goes back by hand too: the books need to say how (UPI, bank, cash, credit).
  if (order.paymentMethod === "cod" && !change.refundMethod) {
    throw httpError(400, "invalid_request", "refundMethod: say how the cash-on-delivery refund was paid", {
      refundMethod: "say how the cash-on-delivery refund was paid",
    });
  }
  const reference = await refund(deps, order, change.refundReference);
  set.refundReference = reference;
  const online = order.paymentMethod === "razorpay";
  await recordMoney(tx, {
    orderId: order.id,
    kind: online ? "online_refund" : "cash_refund",
    amountPaise: online ? (await orderMoney(tx, order.id)).paidOnlinePaise : order.totalPaise,
    razorpayPaymentId: online ? order.razorpayPaymentId : null,
    razorpayRefundId: online ? reference : null,
    reference: online ? null : reference,
    recordedBy: change.actorUserId,
    note: online ? "Refunded through Razorpay" : `Refunded by ${change.refundMethod ?? "hand"}`,
    createdAt: now,
  });
  if (order.paymentMethod === "cod") set.refundMethod = change.refundMethod;
  const method = set.refundMethod ? `${COD_REFUND_METHOD_LABELS[set.refundMethod]} ` : "";
  note = [`Refund ${method}${reference}`, note].filter(Boolean).join(". ");
  return note;
}

/** A parcel returned to origin: what it cost both ways, recorded and booked as the courier's charge. */
async function recordRto(
  tx: Tx,
  order: PaidOrder,
  rto: NonNullable<StatusChange["rto"]>,
  change: StatusChange,
  now: Date,
) {
  await tx.insert(orderRto).values({
    orderId: order.id,
    source: rto.source,
    forwardPaise: rto.forwardPaise,
    returnPaise: rto.returnPaise,
    recordedAt: now,
    recordedBy: change.actorUserId,
  });
  await recordMoney(tx, {
    orderId: order.id,
    kind: "courier_charge",
    amountPaise: rto.forwardPaise + rto.returnPaise,
    reference: order.trackingNumber,
    recordedBy: change.actorUserId,
    note: "Return to origin, both ways",
    createdAt: now,
  });
}

async function auditStatusChange(
  tx: Tx,
  actor: NonNullable<StatusChange["audit"]>,
  order: PaidOrder,
  row: PaidOrder,
  note: string | null,
) {
  const { status, courier, trackingNumber, trackingUrl, refundReference, refundMethod } = order;
  await recordAudit(tx, {
    actor,
    entityType: "order",
    entityId: order.number,
    action: "status",
    before: { status, courier, trackingNumber, trackingUrl, refundReference, refundMethod },
    after: {
      status: row.status,
      courier: row.courier,
      trackingNumber: row.trackingNumber,
      trackingUrl: row.trackingUrl,
      refundReference: row.refundReference,
      refundMethod: row.refundMethod,
      note,
    },
  });
}

/**
 * The buyer's own cancellation, signed in or through a guest order's signed link: the lifecycle's rules for
 * the customer decide whether it may still be cancelled (stock back, refund due, credit note, the mail).
 */
export function cancelAsCustomer(
  deps: Deps,
  where: { orderId: string } | { number: string; userId?: string },
  actorUserId: string | null,
  reason: string | undefined,
): Promise<PaidOrder> {
  return changeOrderStatus(deps, where, {
    to: "cancelled",
    actor: "customer",
    actorUserId,
    note: reason ? `Reason: ${reason}` : null,
  });
}

/**
 * A paid online order is refunded through Razorpay, to the original method; a cash-on-delivery refund is
 * paid by UPI or bank transfer by staff, who enter its reference. Runs while the order row is locked,
 * so two clicks cannot refund twice.
 */
async function refund(deps: Deps, order: PaidOrder, reference: string | undefined): Promise<string> {
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
 * When an unpaid online order stops holding its stock: PAYMENT_HOLD_MINUTES after it was placed if Checkout
 * was never opened (no Razorpay order), else PAYMENT_WINDOW_MINUTES, since a payment may then be under way
 * and a lapse in the middle of it means a refund (docs/decisions/020).
 */
export function paymentDeadline(
  env: Deps["env"],
  order: Pick<OrderRow, "createdAt" | "razorpayOrderId">,
): { at: Date; minutes: number; started: boolean } {
  const started = order.razorpayOrderId !== null;
  const minutes = started
    ? env.PAYMENT_WINDOW_MINUTES
    : Math.min(env.PAYMENT_HOLD_MINUTES, env.PAYMENT_WINDOW_MINUTES);
  return { at: new Date(order.createdAt.getTime() + minutes * 60_000), minutes, started };
}

/**
 * Cancels an unpaid online order past its deadline (paymentDeadline) and puts its stock back. The deadline is
 * checked again on the locked row, so Checkout opened meanwhile, or a payment, wins. True when it lapsed.
 */
export async function lapseUnpaidOrder(deps: Deps, orderId: string, now = new Date()): Promise<boolean> {
  try {
    await changeOrderStatus(
      deps,
      { orderId },
      {
        to: "cancelled",
        actor: "system",
        actorUserId: null,
        note: null,
        now,
        onlyIf: (order) => order.status === "awaiting_payment" && paymentDeadline(deps.env, order).at <= now,
        noteFor: (order) => {
          const { minutes, started } = paymentDeadline(deps.env, order);
          return started
            ? `Not paid within ${minutes} minutes`
            : `Payment not started within ${minutes} minutes`;
        },
      },
    );
    return true;
  } catch (error) {
    // Paid, cancelled or given more time in the meantime: nothing to lapse.
    if ((error as { status?: number }).status !== 409) throw error;
    return false;
  }
}

/**
 * Online orders unpaid past their deadline are cancelled by the shop (they hold no stock, decision 083), so
 * an abandoned payment never keeps its household from ordering again for long. Returns how many lapsed.
 */
export async function expireUnpaidOrders(deps: Deps, now = new Date()): Promise<number> {
  const { PAYMENT_HOLD_MINUTES, PAYMENT_WINDOW_MINUTES } = deps.env;
  const holdCutoff = new Date(
    now.getTime() - Math.min(PAYMENT_HOLD_MINUTES, PAYMENT_WINDOW_MINUTES) * 60_000,
  );
  const windowCutoff = new Date(now.getTime() - PAYMENT_WINDOW_MINUTES * 60_000);
  const stale = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, "awaiting_payment"),
        or(
          and(isNull(orders.razorpayOrderId), lt(orders.createdAt, holdCutoff)),
          lt(orders.createdAt, windowCutoff),
        ),
      ),
    );
  let expired = 0;
  for (const { id } of stale) {
    if (await lapseUnpaidOrder(deps, id, now)) expired++;
  }
  return expired;
}

export const EXPIRE_UNPAID_ORDERS_JOB = "expire-unpaid-orders";

/**
 * Queues the check for lapsed unpaid orders once a minute while the shop runs. Every instance offers the
 * same minute's job under one key, so it is queued, and run by one worker, once across all instances.
 * Returns the function that stops it.
 */
export function scheduleUnpaidOrderExpiry(deps: Deps): () => void {
  const offer = () => {
    const minute = new Date().toISOString().slice(0, 16);
    enqueueJob(deps.db, {
      kind: EXPIRE_UNPAID_ORDERS_JOB,
      payload: {},
      key: `${EXPIRE_UNPAID_ORDERS_JOB}:${minute}`,
    }).catch((error) => log.warn({ err: serializeError(error) }, "could not queue the unpaid-order check"));
  };
  offer();
  const timer = setInterval(offer, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
