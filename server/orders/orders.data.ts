import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { imageFor } from "../../common/catalogue.ts";
import { trackingUrl } from "../../common/couriers.ts";
import { LIST_TOTAL_CAP } from "../../common/lists.ts";
import { checkTransition, type LifecycleOrder, type OrderStatus } from "../../common/order-lifecycle.ts";
import type { OrderDetail, OrderEvent, OrderLine, OrderListItem, OrderPage } from "../../common/orders.ts";
import type { PrepaidSaving } from "../../common/prepaid-incentive.ts";
import type { DbOrTx } from "../db/client.ts";
import { cappedTotal, type KeysetRequest, keysetQuery } from "../db/keyset.ts";
import { type OrderRow, orderEvents, orderLines, orderRto, orders, shipments } from "../db/schema.ts";
import { documentNumbersOf } from "../invoices/tax-documents.ts";
import { orderWithPayment, type PaidOrder } from "../money/ledger.ts";

type LineRow = typeof orderLines.$inferSelect;
type EventRow = typeof orderEvents.$inferSelect;

export const ORDERS_PAGE_SIZE = 10;

export function presentLine(row: LineRow): OrderLine {
  return {
    itemId: row.itemId,
    kind: row.kind,
    name: row.name,
    image: imageFor(row.image).small,
    unitPricePaise: row.unitPricePaise,
    quantity: row.quantity,
    lineTotalPaise: row.lineTotalPaise,
  };
}

export function presentEvent(row: EventRow): OrderEvent {
  return {
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    kind: row.kind,
    actor: row.actor,
    note: row.note,
    at: row.createdAt.toISOString(),
  };
}

export function lifecycleOf(order: PaidOrder): LifecycleOrder {
  return {
    status: order.status,
    placedAt: order.createdAt,
    deliveredAt: order.deliveredAt,
    paidAt: order.paidAt,
    hasPerishables: order.hasPerishables,
  };
}

/**
 * True where a parcel returned to origin is back with the shop: its courier delivered it back, or staff received
 * it (docs/decisions/062). Until then the order reads "Coming back to us".
 */
export const parcelBackSql = sql<boolean>`(exists (select 1 from ${shipments} where ${shipments.orderId} = ${orders.id} and ${shipments.status} = 'rto_delivered') or exists (select 1 from ${orderRto} where ${orderRto.orderId} = ${orders.id} and ${orderRto.receivedAt} is not null))`;

/** Lines and history of several orders at once, in display order, and which of them have a parcel back. */
export async function loadOrderParts(db: DbOrTx, orderIds: string[]) {
  if (orderIds.length === 0) return { linesOf: () => [], eventsOf: () => [], parcelBackOf: () => false };
  const [lineRows, eventRows, backRows] = await Promise.all([
    db
      .select()
      .from(orderLines)
      .where(inArray(orderLines.orderId, orderIds))
      .orderBy(asc(orderLines.position)),
    db
      .select()
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, orderIds))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.id, orderIds), eq(orders.status, "returned_to_origin"), parcelBackSql)),
  ]);
  const back = new Set(backRows.map((row) => row.id));
  const group = <T extends { orderId: string }>(rows: T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(row.orderId, [...(map.get(row.orderId) ?? []), row]);
    return map;
  };
  const lines = group(lineRows);
  const events = group(eventRows);
  return {
    linesOf: (orderId: string) => lines.get(orderId) ?? [],
    eventsOf: (orderId: string) => events.get(orderId) ?? [],
    parcelBackOf: (orderId: string) => back.has(orderId),
  };
}

export function presentListItem(
  order: OrderRow,
  lines: LineRow[],
  events: EventRow[],
  parcelBack = false,
): OrderListItem {
  return {
    number: order.number,
    status: order.status,
    placedAt: order.createdAt.toISOString(),
    totalPaise: order.totalPaise,
    paymentMethod: order.paymentMethod,
    lines: lines.map(presentLine),
    events: events.map(presentEvent),
    parcelBack,
  };
}

const CANCELLABLE_STATUSES: readonly OrderStatus[] = ["awaiting_payment", "placed", "confirmed", "packed"];

/** The customer's view of one order; `paymentsOpen` says whether an unpaid order can still be paid online. */
export function presentOrderDetail(
  order: PaidOrder,
  lines: LineRow[],
  events: EventRow[],
  {
    now,
    paymentsOpen,
    documents = { invoice: null, creditNote: null },
    codConfirmToken,
    parcelBack = false,
  }: {
    now: Date;
    paymentsOpen: boolean;
    documents?: OrderDetail["documents"];
    /** The order's confirmation-link token, given only to the order's own shopper (account or guest link). */
    codConfirmToken?: string;
    parcelBack?: boolean;
  },
): OrderDetail {
  const lifecycle = lifecycleOf(order);
  const cancel = checkTransition(lifecycle, "cancelled", "customer", now);
  const requestReturn = checkTransition(lifecycle, "return_requested", "customer", now);
  return {
    ...presentListItem(order, lines, events, parcelBack),
    subtotalPaise: order.subtotalPaise,
    discount: order.discountCode ? { code: order.discountCode, amountPaise: order.discountPaise } : null,
    prepaid: prepaidSavingOf(order),
    shippingPaise: order.shippingPaise,
    address: {
      name: order.shipName,
      phone: order.shipPhone,
      line1: order.shipLine1,
      line2: order.shipLine2,
      city: order.shipCity,
      district: order.shipDistrict,
      state: order.shipState as OrderDetail["address"]["state"],
      pin: order.shipPin,
    },
    estimate: { from: order.estimatedDeliveryFrom, to: order.estimatedDeliveryTo },
    courier: order.courier,
    trackingNumber: order.trackingNumber,
    trackingUrl: trackingUrl(order.courier, order.trackingNumber, order.trackingUrl),
    paidAt: order.paidAt?.toISOString() ?? null,
    shippedAt: order.shippedAt?.toISOString() ?? null,
    deliveredAt: order.deliveredAt?.toISOString() ?? null,
    documents,
    actions: {
      cancel: cancel.ok
        ? { allowed: true, reason: null }
        : { allowed: false, reason: CANCELLABLE_STATUSES.includes(order.status) ? cancel.reason : null },
      requestReturn: requestReturn.ok
        ? { allowed: true, reason: null }
        : { allowed: false, reason: order.status === "delivered" ? requestReturn.reason : null },
      pay: paymentsOpen && order.status === "awaiting_payment" && order.paymentMethod === "razorpay",
    },
    codConfirm:
      codConfirmToken && order.status === "placed" && order.paymentMethod === "cod" && order.codConfirmBy
        ? { confirmBy: order.codConfirmBy.toISOString(), token: codConfirmToken }
        : null,
  };
}

/** One order by its number; with `userId`, only when it is that customer's (anyone else's is simply not found). */
export async function findOrder(db: DbOrTx, number: string, userId?: string): Promise<PaidOrder | undefined> {
  const [order] = await db
    .select(orderWithPayment)
    .from(orders)
    .where(userId ? and(eq(orders.number, number), eq(orders.userId, userId)) : eq(orders.number, number));
  return order;
}

export async function getOrderDetail(
  db: DbOrTx,
  order: PaidOrder,
  options: { now: Date; paymentsOpen: boolean; codConfirmToken?: string },
): Promise<OrderDetail> {
  const [{ linesOf, eventsOf, parcelBackOf }, documents] = await Promise.all([
    loadOrderParts(db, [order.id]),
    documentNumbersOf(db, order.id),
  ]);
  return presentOrderDetail(order, linesOf(order.id), eventsOf(order.id), {
    ...options,
    documents,
    parcelBack: parcelBackOf(order.id),
  });
}

const ORDER_KEYS = { at: orders.createdAt, id: orders.id };

/**
 * The customer's orders, newest first by keyset (docs/decisions/034) from orders_user_id_created_at_id_idx;
 * the total stops at 10,000 like every list's.
 */
export async function listOrdersOf(db: DbOrTx, userId: string, query: KeysetRequest): Promise<OrderPage> {
  const mine = eq(orders.userId, userId);
  const keyset = keysetQuery(ORDER_KEYS, query);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ order: orders, cursorAt: keyset.cursorAt })
      .from(orders)
      .where(and(mine, keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(ORDERS_PAGE_SIZE + 1),
    db.select({ count: sql<number>`count(*)::int` }).from(
      db
        .select({ one: sql`1`.as("one") })
        .from(orders)
        .where(mine)
        .limit(LIST_TOTAL_CAP + 1)
        .as("capped"),
    ),
  ]);
  const page = keyset.page(rows, ORDERS_PAGE_SIZE, (row) => row.order.id);
  const { linesOf, eventsOf, parcelBackOf } = await loadOrderParts(
    db,
    page.items.map((row) => row.order.id),
  );
  return {
    orders: page.items.map(({ order }) =>
      presentListItem(order, linesOf(order.id), eventsOf(order.id), parcelBackOf(order.id)),
    ),
    pageSize: ORDERS_PAGE_SIZE,
    total: cappedTotal(counted?.count ?? 0, LIST_TOTAL_CAP),
    ...page.cursors,
  };
}

/** What the order keeps of the prepaid incentive, as the checkout summary showed it. */
export function prepaidSavingOf(
  order: Pick<OrderRow, "prepaidDiscountPaise" | "prepaidShippingWaivedPaise">,
): PrepaidSaving | null {
  if (order.prepaidDiscountPaise > 0) return { kind: "discount", amountPaise: order.prepaidDiscountPaise };
  if (order.prepaidShippingWaivedPaise > 0)
    return { kind: "free_shipping", amountPaise: order.prepaidShippingWaivedPaise };
  return null;
}
