import { and, asc, count, eq, isNotNull, lte, sql } from "drizzle-orm";
import type {
  CodConfirmPage,
  CodConfirmState,
  ToConfirmList,
  ToConfirmRow,
} from "../../common/cod-confirm.ts";
import { STATUS_LABELS } from "../../common/order-lifecycle.ts";
import type { AuditActor } from "../audit/audit.ts";
import { codConfirmTokenMatches } from "../cod/confirm-link.ts";
import { confirmHours, confirmRequestJob } from "../cod/confirm-request.ts";
import { payOnlineOffer } from "../cod/pay-online-instead.ts";
import type { DbOrTx, Tx } from "../db/client.ts";
import { type OrderRow, orderLines, orders, razorpayOrders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { Env } from "../env.ts";
import { httpError, notFound } from "../errors.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import { orderWithPayment, type PaidOrder } from "../money/ledger.ts";
import { changeOrderStatus } from "../orders/order-status.ts";
import { enqueueWhatsApp } from "../orders/order-whatsapp.ts";
import { prepaidSavingOf } from "../orders/orders.data.ts";
import { smsReachesShoppers } from "../sms/sms-sender.ts";
import { MINUTE_MS, requireAllowance } from "../throttles/throttle.ts";

/**
 * A cash-on-delivery order is confirmed by its shopper before it is packed (issue 29, docs/decisions/065):
 * placing it sets a deadline and sends a one-tap link (SMS, e-mail, WhatsApp where asked for); the link
 * confirms it (placed -> confirmed, so it reaches packing) or cancels it; staff call the rest from the "to
 * confirm" list; past the deadline the shop cancels it, its stock back and the shopper told.
 */

export const LAPSE_UNCONFIRMED_JOB = "lapse-unconfirmed-cod";

/**
 * Queues the question, in the placing transaction: by SMS to the delivery mobile, and on WhatsApp where the
 * shopper asked for it. The e-mail is the order's "placed" mail, which carries the same link (order-mail.ts).
 */
export async function askToConfirm(tx: Tx, orderId: string) {
  await enqueueJob(tx, confirmRequestJob(orderId));
  await enqueueWhatsApp(tx, orderId, "cod_confirm");
}

function stateOf(order: OrderRow): CodConfirmState {
  if (order.status === "placed") return "waiting";
  if (order.status === "confirmed") return "confirmed";
  if (order.status === "cancelled") return "cancelled";
  return "under_way";
}

/** What the link's page shows. */
export async function presentConfirmPage(deps: Deps, order: OrderRow): Promise<CodConfirmPage> {
  const lines = await deps.db
    .select({
      name: orderLines.name,
      quantity: orderLines.quantity,
      lineTotalPaise: orderLines.lineTotalPaise,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(orderLines.position);
  const state = stateOf(order);
  return {
    number: order.number,
    state,
    statusLabel: STATUS_LABELS[order.status],
    paymentMethod: order.paymentMethod,
    totalPaise: order.totalPaise,
    placedAt: order.createdAt.toISOString(),
    confirmBy: state === "waiting" && order.codConfirmBy ? order.codConfirmBy.toISOString() : null,
    lines,
    address: { name: order.shipName, city: order.shipCity, state: order.shipState, pin: order.shipPin },
    payOnline: await payOnlineOffer(deps, order),
    prepaid: prepaidSavingOf(order),
  };
}

/**
 * The order a link names, when its token is right; the same 404 either way, so links cannot be probed. Each miss
 * counts against the client, as a guest order's link does, so no one can try tokens without end.
 */
export async function orderByLink(
  deps: Deps,
  number: string,
  token: string,
  client: string,
): Promise<PaidOrder> {
  const [order] = await deps.db.select(orderWithPayment).from(orders).where(eq(orders.number, number));
  if (order && codConfirmTokenMatches(deps.authSecret, order.id, token)) return order;
  await requireAllowance(
    deps.db,
    `cod-confirm-link:client:${client}`,
    deps.env.GUEST_ORDER_LINK_MISSES_PER_CLIENT,
    deps.env.GUEST_ORDER_WINDOW_MINUTES * MINUTE_MS,
    (wait) => ({
      code: "too_many_requests",
      message: `Too many links that open nothing. Please wait ${Math.ceil(wait / 60)} min and try again, or open the link in your message again.`,
    }),
  );
  throw notFound("This confirmation link does not open an order. Please check the link in your message.");
}

const waitingForConfirmation = (order: OrderRow) =>
  order.status === "placed" && order.paymentMethod === "cod" && order.codConfirmBy !== null;

export type ConfirmedBy = "link" | "whatsapp" | "staff";
const CONFIRMED_NOTE: Record<ConfirmedBy, string> = {
  link: "Confirmed by the shopper from the confirmation link",
  whatsapp: "Confirmed by the shopper on WhatsApp",
  staff: "Confirmed with the shopper by staff",
};

/**
 * Confirms a waiting order: it moves to confirmed (invoiced, on the packing list). One already confirmed is
 * answered as it is (a second tap changes nothing); one cancelled or under way is a 409 that says so.
 */
export async function confirmCodOrder(
  deps: Deps,
  orderId: string,
  by: ConfirmedBy,
  staff?: AuditActor,
): Promise<OrderRow> {
  const [current] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!current) throw notFound("There is no such order.");
  if (current.status === "confirmed") return current;
  if (!waitingForConfirmation(current) && by !== "staff") throw notWaiting(current);
  const now = new Date();
  // Past its deadline the shopper's answer comes too late, even before the once-a-minute lapse has run: the
  // order is cancelled now, as the lapse would have, and the shopper is told.
  if (by !== "staff" && current.codConfirmBy && current.codConfirmBy <= now) {
    await lapseUnconfirmedOrders(deps, now);
    throw notWaiting({ ...current, status: "cancelled" });
  }
  return changeOrderStatus(
    deps,
    { orderId },
    {
      to: "confirmed",
      actor: by === "staff" ? "admin" : "customer",
      actorUserId: staff?.id ?? null,
      note: CONFIRMED_NOTE[by],
      onlyIf: (order) =>
        order.status === "placed" &&
        (by === "staff" || order.codConfirmBy === null || order.codConfirmBy > now),
      now,
      ...(staff ? { audit: staff } : {}),
    },
  );
}

/** The shopper's "Cancel" on the link or WhatsApp: the customer's own cancellation, by the usual rules. */
export async function cancelCodOrder(
  deps: Deps,
  orderId: string,
  by: ConfirmedBy,
  staff?: AuditActor,
  reason?: string,
): Promise<OrderRow> {
  const [current] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!current) throw notFound("There is no such order.");
  if (current.status === "cancelled") return current;
  const note =
    by === "staff"
      ? ["Not confirmed: cancelled by staff", reason].filter(Boolean).join(". ")
      : by === "whatsapp"
        ? "Cancelled by the shopper on WhatsApp"
        : "Cancelled by the shopper from the confirmation link";
  return changeOrderStatus(
    deps,
    { orderId },
    {
      to: "cancelled",
      actor: by === "staff" ? "admin" : "customer",
      actorUserId: staff?.id ?? null,
      note,
      ...(staff ? { audit: staff } : {}),
    },
  );
}

function notWaiting(order: OrderRow) {
  return httpError(
    409,
    "not_waiting_for_confirmation",
    order.status === "cancelled"
      ? `Order ${order.number} was cancelled, so it can no longer be confirmed. Please place a new order.`
      : `Order ${order.number} is ${STATUS_LABELS[order.status].toLowerCase()}: there is nothing to confirm.`,
  );
}

/** The staff's list: unconfirmed cash-on-delivery orders, soonest deadline first. */
export async function listToConfirm(db: DbOrTx, env: Env, canChangeHours: boolean): Promise<ToConfirmList> {
  const rows = await db
    .select({
      number: orders.number,
      createdAt: orders.createdAt,
      confirmBy: orders.codConfirmBy,
      name: orders.shipName,
      phone: orders.shipPhone,
      city: orders.shipCity,
      state: orders.shipState,
      pin: orders.shipPin,
      totalPaise: orders.totalPaise,
      items: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
      // "orders"."id" written out: inside a subquery on a table with an id of its own, the bare column would be its.
      payingOnlineSince:
        sql<Date | null>`(select max(${razorpayOrders.createdAt}) from ${razorpayOrders} where ${razorpayOrders.orderId} = "orders"."id" and ${razorpayOrders.purpose} = 'switch' and ${razorpayOrders.closedAt} is null)`.mapWith(
          (value: string | null) => (value === null ? null : new Date(value)),
        ),
      // The question's fate on WhatsApp (docs/decisions/078).
      whatsapp: sql<{
        status: string;
        error: string | null;
      } | null>`(select json_build_object('status', wm.status, 'error', wm.error_title) from whatsapp_messages wm where wm.order_id = ${orders.id} and wm.kind = 'cod_confirm' order by wm.created_at desc limit 1)`,
    })
    .from(orders)
    .where(and(eq(orders.status, "placed"), isNotNull(orders.codConfirmBy)))
    .orderBy(asc(orders.codConfirmBy), asc(orders.id))
    .limit(200);
  const smsReaches = smsReachesShoppers(env);
  const list: ToConfirmRow[] = rows.map((row) => ({
    number: row.number,
    placedAt: row.createdAt.toISOString(),
    confirmBy: (row.confirmBy ?? row.createdAt).toISOString(),
    name: row.name,
    phone: row.phone,
    city: row.city,
    state: row.state,
    pin: row.pin,
    totalPaise: row.totalPaise,
    items: row.items,
    payingOnlineSince: row.payingOnlineSince?.toISOString() ?? null,
    whatsapp: row.whatsapp as ToConfirmRow["whatsapp"],
    neverReached: row.whatsapp?.status === "failed" && !smsReaches,
  }));
  return { orders: list, confirmHours: await confirmHours(db, env), canChangeHours };
}

/** How many wait now: the admin's dashboard and menu can show it. */
export async function countToConfirm(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.status, "placed"), isNotNull(orders.codConfirmBy)));
  return row?.n ?? 0;
}

/**
 * Cancels the unconfirmed orders past their deadline (`now` is the clock, so tests can move it): stock back
 * and the shopper's cancellation mail, as any cancellation. The deadline is checked again on the locked row,
 * so a confirmation that came meanwhile wins. Returns how many lapsed.
 */
export async function lapseUnconfirmedOrders(deps: Deps, now = new Date()): Promise<number> {
  const due = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "placed"), isNotNull(orders.codConfirmBy), lte(orders.codConfirmBy, now)));
  let lapsed = 0;
  for (const { id } of due) {
    try {
      await changeOrderStatus(
        deps,
        { orderId: id },
        {
          to: "cancelled",
          actor: "system",
          actorUserId: null,
          now,
          onlyIf: (order) =>
            order.status === "placed" && order.codConfirmBy !== null && order.codConfirmBy <= now,
          noteFor: (order) => {
            const hours = Math.round(
              ((order.codConfirmBy?.getTime() ?? 0) - order.createdAt.getTime()) / 3_600_000,
            );
            return `Not confirmed within ${hours} hours`;
          },
        },
      );
      lapsed++;
    } catch (error) {
      // Confirmed or cancelled in the meantime: nothing to lapse.
      if ((error as { status?: number }).status !== 409) throw error;
    }
  }
  return lapsed;
}

/**
 * Queues the lapse check once a minute while the shop runs; every instance offers the same minute's job under
 * one key, so one worker runs it. Returns the function that stops it.
 */
export function scheduleConfirmationLapses(deps: Deps): () => void {
  const offer = () => {
    const minute = new Date().toISOString().slice(0, 16);
    enqueueJob(deps.db, {
      kind: LAPSE_UNCONFIRMED_JOB,
      payload: {},
      key: `${LAPSE_UNCONFIRMED_JOB}:${minute}`,
    }).catch((error) =>
      log.warn({ err: serializeError(error) }, "could not queue the COD confirmation check"),
    );
  };
  offer();
  const timer = setInterval(offer, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
