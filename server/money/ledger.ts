import { and, asc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client.ts";
import { type MoneyKind, moneyLedger, type OrderRow, orders, razorpayOrders } from "../db/schema.ts";

/**
 * Why a payment at checkout could not take its order's stock (docs/decisions/083): the note its unapplied
 * capture carries, by which the shopper's mail tells them so.
 */
export const SOLD_OUT_BEFORE_PAYMENT = "the last units were sold before this order was paid";

/**
 * The one record of money (docs/decisions/075): every payment captured, refund sent, cash collected, remittance
 * received and courier charge is a row of money_ledger, written in the transaction of the order change it
 * belongs to. What an order has been paid, owes back or leaves to collect is summed from here; the trigger of
 * migration 0042 refuses a commit after which an order's online money does not match its total.
 */

/**
 * The order's own payment as the ledger records it: its first capture applied to the order (docs/decisions/091).
 * The order row stores no "paid" of its own, so the two can never disagree; a query selects these beside the
 * order's columns (`orderWithPayment`) and reads them in the same snapshot as the order.
 */
// The order's id is written in full: drizzle leaves columns unqualified in a one-table select, and inside the
// subquery "id" would then mean the ledger's own.
const appliedCapture = (column: SQL) =>
  sql`(select ${column} from "money_ledger" "capture" where "capture"."order_id" = "orders"."id"
    and "capture"."kind" = 'online_payment' and "capture"."applied" order by "capture"."id" limit 1)`;

/** When the order was paid online; null while it is not (cash on delivery, or waiting for its payment). */
export const orderPaidAt = appliedCapture(sql`"capture"."created_at"`).mapWith(
  (value: string | Date) => new Date(value),
) as SQL<Date | null>;

/** The Razorpay payment that paid the order, the one its refunds go back to. */
export const orderPaymentId = appliedCapture(sql`"capture"."razorpay_payment_id"`).mapWith(String) as SQL<
  string | null
>;

/** An order with its payment, as every reader of "paid" selects it. */
export type PaidOrder = OrderRow & { paidAt: Date | null; razorpayPaymentId: string | null };

/** The columns of an order and of its payment, for `select(orderWithPayment).from(orders)` and `returning(...)`. */
export const orderWithPayment = {
  ...getTableColumns(orders),
  paidAt: orderPaidAt,
  razorpayPaymentId: orderPaymentId,
};

/** An order just placed: no money has moved for it yet. */
export const unpaid = (order: OrderRow): PaidOrder => ({ ...order, paidAt: null, razorpayPaymentId: null });

export type MoneyEntry = {
  orderId: string;
  kind: MoneyKind;
  amountPaise: number;
  applied?: boolean;
  razorpayOrderId?: string | null;
  razorpayPaymentId?: string | null;
  razorpayRefundId?: string | null;
  reference?: string | null;
  recordedBy?: string | null;
  note?: string | null;
  createdAt?: Date;
};

/** Writes a movement of money; a zero amount (a free parcel, nothing to refund) is not a movement. */
export async function recordMoney(tx: DbOrTx, entry: MoneyEntry) {
  if (entry.amountPaise <= 0) return;
  await tx.insert(moneyLedger).values(entry);
}

/** A Razorpay order the shop made for an order: what it asks for, and why. */
export async function recordRazorpayOrder(
  tx: DbOrTx,
  entry: { id: string; orderId: string; purpose: "checkout" | "switch"; amountPaise: number },
) {
  await tx.insert(razorpayOrders).values(entry).onConflictDoNothing();
}

/**
 * Closes the order's open Razorpay orders: a payment for one of them can no longer be applied as it was opened,
 * and is refunded automatically when it comes (server/payments/take-payment.ts).
 */
export async function closeRazorpayOrders(tx: Tx, orderId: string, reason: string, now = new Date()) {
  await tx
    .update(razorpayOrders)
    .set({ closedAt: now, closedReason: reason })
    .where(and(eq(razorpayOrders.orderId, orderId), isNull(razorpayOrders.closedAt)));
}

/** The open "pay online instead" of an order, if its shopper has one: staff then wait or close it. */
export async function openSwitchOf(db: DbOrTx, orderId: string) {
  const [open] = await db
    .select()
    .from(razorpayOrders)
    .where(
      and(
        eq(razorpayOrders.orderId, orderId),
        eq(razorpayOrders.purpose, "switch"),
        isNull(razorpayOrders.closedAt),
      ),
    );
  return open ?? null;
}

export type OrderMoney = {
  /** Captured online and applied to the order, less what was refunded of it. */
  paidOnlinePaise: number;
  /** Payments that could not be applied and are not refunded yet (the refund job is on its way). */
  unappliedPendingPaise: number;
  /** Cash the courier collected at the door. */
  cashCollectedPaise: number;
  /** What the courier remitted to the shop. */
  remittedPaise: number;
  /** Cash refunded by hand (UPI, bank transfer). */
  cashRefundedPaise: number;
  /** What couriers charged the shop for this order. */
  courierChargesPaise: number;
};

/** An order's money, summed from the ledger. */
export async function orderMoney(db: DbOrTx, orderId: string): Promise<OrderMoney> {
  const amount = (kind: MoneyKind, applied?: boolean) =>
    sql<number>`coalesce(sum(${moneyLedger.amountPaise}) filter (where ${moneyLedger.kind} = ${kind}${
      applied === undefined ? sql`` : sql` and ${moneyLedger.applied} = ${applied}`
    }), 0)::int`;
  const [row] = await db
    .select({
      paid: amount("online_payment", true),
      refunded: amount("online_refund", true),
      unapplied: amount("online_payment", false),
      unappliedRefunded: amount("online_refund", false),
      cash: amount("cash_collected"),
      remitted: amount("cod_remittance"),
      cashRefunded: amount("cash_refund"),
      charges: amount("courier_charge"),
    })
    .from(moneyLedger)
    .where(eq(moneyLedger.orderId, orderId));
  return {
    paidOnlinePaise: (row?.paid ?? 0) - (row?.refunded ?? 0),
    unappliedPendingPaise: (row?.unapplied ?? 0) - (row?.unappliedRefunded ?? 0),
    cashCollectedPaise: row?.cash ?? 0,
    remittedPaise: row?.remitted ?? 0,
    cashRefundedPaise: row?.cashRefunded ?? 0,
    courierChargesPaise: row?.charges ?? 0,
  };
}

/** The order's movements of money, oldest first, for staff. */
export function moneyEntriesOf(db: DbOrTx, orderId: string) {
  return db
    .select({
      kind: moneyLedger.kind,
      amountPaise: moneyLedger.amountPaise,
      applied: moneyLedger.applied,
      razorpayPaymentId: moneyLedger.razorpayPaymentId,
      razorpayRefundId: moneyLedger.razorpayRefundId,
      reference: moneyLedger.reference,
      note: moneyLedger.note,
      createdAt: moneyLedger.createdAt,
    })
    .from(moneyLedger)
    .where(eq(moneyLedger.orderId, orderId))
    .orderBy(asc(moneyLedger.id));
}
