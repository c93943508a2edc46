import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { indianDate, startOfIndianDay } from "../../common/india-time.ts";
import {
  type OrderRtoView,
  type RecordRto,
  RTO_LIST_LIMIT,
  type RtoFigures,
  type RtoGroup,
  type RtoStats,
} from "../../common/rto.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { orderEvents, orderRto, orders, shipments } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { issueCreditNote } from "../invoices/tax-documents.ts";
import { changeOrderStatus, restock } from "../orders/order-status.ts";

async function orderIdOf(db: Db, number: string) {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  if (!order) throw notFound("There is no order with that number.");
  return order.id;
}

/** What the shop paid the courier for the order's parcel, when an aggregator booked it. */
export async function parcelChargesPaise(db: Db, orderId: string): Promise<number | null> {
  const [parcel] = await db
    .select({ charges: shipments.chargesPaise })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), sql`${shipments.status} <> 'cancelled'`))
    .orderBy(desc(shipments.createdAt))
    .limit(1);
  return parcel?.charges ?? null;
}

/** Staff record by hand that a shipped order's parcel is coming back, with what it cost both ways. */
export async function recordRtoByHand(deps: Deps, number: string, input: RecordRto, actor: AuditActor) {
  const orderId = await orderIdOf(deps.db, number);
  await changeOrderStatus(
    deps,
    { orderId },
    {
      to: "returned_to_origin",
      actor: "admin",
      actorUserId: actor.id,
      note: input.note || "Parcel returned to origin",
      audit: actor,
      rto: { source: "manual", forwardPaise: input.forwardPaise, returnPaise: input.returnPaise },
    },
  );
}

/**
 * The parcel is back on the shelf: its stock is restored and the invoice reversed by a credit note, once. The
 * conditional update of `received_at` under the order's lock is the whole guard: a second click, or twenty at
 * once, find it set and change nothing. Answers whether this call was the one that received it.
 */
export async function receiveRto(deps: Deps, number: string, actor: AuditActor, now = new Date()) {
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
    if (!order) throw notFound("There is no order with that number.");
    const [taken] = await tx
      .update(orderRto)
      .set({ receivedAt: now, receivedBy: actor.id })
      .where(and(eq(orderRto.orderId, order.id), isNull(orderRto.receivedAt)))
      .returning({ orderId: orderRto.orderId });
    if (!taken) {
      const [known] = await tx.select().from(orderRto).where(eq(orderRto.orderId, order.id));
      if (!known) {
        throw httpError(409, "not_returned", "This order has not been recorded as returned to origin.");
      }
      return { received: false };
    }
    await restock(tx, order.id);
    await issueCreditNote(tx, order, "Goods returned to origin", now);
    await tx
      .update(shipments)
      .set({ receivedBackAt: now })
      .where(and(eq(shipments.orderId, order.id), sql`${shipments.status} <> 'cancelled'`));
    const note = "Parcel received back unopened; stock restored";
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: order.status,
      kind: "parcel_back",
      actor: "admin",
      actorUserId: actor.id,
      note,
      createdAt: now,
    });
    await recordAudit(tx, {
      actor,
      entityType: "order",
      entityId: order.number,
      action: "rto_received",
      before: { receivedAt: null },
      after: { receivedAt: now.toISOString(), note },
    });
    return { received: true };
  });
}

export async function orderRtoView(db: Db, orderId: string): Promise<OrderRtoView | null> {
  const [row] = await db.select().from(orderRto).where(eq(orderRto.orderId, orderId));
  if (!row) return null;
  return {
    source: row.source,
    forwardPaise: row.forwardPaise,
    returnPaise: row.returnPaise,
    recordedAt: row.recordedAt.toISOString(),
    receivedAt: row.receivedAt?.toISOString() ?? null,
  };
}

const figures = (shipped: number, returned: number, costPaise: number): RtoFigures => ({
  shipped,
  returned,
  ratePerMille: shipped ? Math.round((returned * 1000) / shipped) : 0,
  costPaise,
});

/**
 * The RTO rate over orders shipped in the period (India's days, inclusive), grouped by PIN, district, state or
 * customer (the account, else the delivery mobile), with what the returns cost. All sums are done by
 * PostgreSQL; the list holds the groups with the most parcels back.
 */
export async function rtoStats(
  db: Db,
  now: Date,
  query: { from?: string; to?: string; by: RtoGroup },
): Promise<RtoStats> {
  const to = query.to ?? indianDate(now);
  const from = query.from ?? indianDate(new Date(now.getTime() - 89 * 24 * 3600 * 1000));
  const inPeriod = and(
    gte(orders.shippedAt, startOfIndianDay(from)),
    lt(orders.shippedAt, new Date(startOfIndianDay(to).getTime() + 24 * 3600 * 1000)),
  );
  const key = {
    pin: sql<string>`${orders.shipPin}`,
    district: sql<string>`coalesce(nullif(${orders.shipDistrict}, ''), ${orders.shipCity})`,
    state: sql<string>`${orders.shipState}`,
    customer: sql<string>`coalesce('account:' || ${orders.userId}, 'mobile:' || ${orders.shipPhone})`,
  }[query.by];
  const label = {
    pin: sql<string>`${orders.shipPin} || ' ' || max(${orders.shipCity})`,
    district: sql<string>`${key} || ', ' || max(${orders.shipState})`,
    state: sql<string>`${key}`,
    customer: sql<string>`max(${orders.shipName}) || ' · ' || max(${orders.shipPhone})`,
  }[query.by];
  const returned = sql<number>`count(${orderRto.orderId})::int`;
  const cost = sql<number>`coalesce(sum(${orderRto.forwardPaise} + ${orderRto.returnPaise}), 0)::int`;

  const [methods, rows, [groupCount]] = await Promise.all([
    db
      .select({ method: orders.paymentMethod, shipped: sql<number>`count(*)::int`, returned, cost })
      .from(orders)
      .leftJoin(orderRto, eq(orderRto.orderId, orders.id))
      .where(inPeriod)
      .groupBy(orders.paymentMethod),
    db
      .select({ key, label, shipped: sql<number>`count(*)::int`, returned, cost })
      .from(orders)
      .leftJoin(orderRto, eq(orderRto.orderId, orders.id))
      .where(inPeriod)
      .groupBy(key)
      .having(sql`count(${orderRto.orderId}) > 0`)
      .orderBy(desc(returned), desc(cost), key)
      .limit(RTO_LIST_LIMIT),
    db
      .select({ n: sql<number>`count(distinct ${key})::int` })
      .from(orders)
      .innerJoin(orderRto, eq(orderRto.orderId, orders.id))
      .where(inPeriod),
  ]);
  const of = (method: "cod" | "razorpay") => {
    const row = methods.find((each) => each.method === method);
    return figures(row?.shipped ?? 0, row?.returned ?? 0, row?.cost ?? 0);
  };
  const cod = of("cod");
  const prepaid = of("razorpay");
  return {
    from,
    to,
    by: query.by,
    total: figures(
      cod.shipped + prepaid.shipped,
      cod.returned + prepaid.returned,
      cod.costPaise + prepaid.costPaise,
    ),
    cod,
    prepaid,
    rows: rows.map((row) => ({
      key: row.key,
      label: row.label,
      ...figures(row.shipped, row.returned, row.cost),
    })),
    groups: groupCount?.n ?? 0,
  };
}
