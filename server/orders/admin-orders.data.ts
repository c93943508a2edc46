import { addDays, format, startOfWeek, subDays } from "date-fns";
import { and, asc, eq, gte, ilike, inArray, lt, type SQL, sql } from "drizzle-orm";
import { normalizeMobile } from "../../common/india.ts";
import type { KeysetCursor, ListTotal } from "../../common/lists.ts";
import { nextStatuses, ORDER_STATUSES, type OrderStatus } from "../../common/order-lifecycle.ts";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderRow,
  DashboardFigures,
  StockItem,
  StockList,
} from "../../common/orders.ts";
import type { AdminOrderQuery } from "../../common/schemas/orders.ts";
import {
  cappedTotal,
  countUpTo,
  cursorAt,
  type KeysetRequest,
  keysetOrder,
  keysetPage,
  keysetWhere,
} from "../admin/keyset.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { csvCell } from "../csv.ts";
import type { Db } from "../db/client.ts";
import {
  combos,
  orderDayDeltas,
  orderEvents,
  orderLines,
  orderStatusDeltas,
  orders,
  products,
  users,
} from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
import { documentNumbersOf } from "../invoices/tax-documents.ts";
import {
  lifecycleOf,
  loadOrderParts,
  type OrderRow,
  presentEvent,
  presentOrderDetail,
} from "./orders.data.ts";

export const ADMIN_PAGE_SIZE = 25;
/** Rows the export reads per query: enough to keep round trips few, few enough to keep memory flat. */
const EXPORT_BATCH = 1_000;

/** India keeps one offset all year, so a day in India is a fixed 24-hour span of UTC. */
const IST = "+05:30";
const startOfIndianDay = (date: string) => new Date(`${date}T00:00:00${IST}`);
const indianDate = (moment: Date) => new Date(moment.getTime() + 330 * 60_000).toISOString().slice(0, 10);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const ORDER_KEYS = { at: orders.createdAt, id: orders.id };

/**
 * The text the trigram index covers; it must stay identical to the expression of orders_search_trgm_idx
 * (migration 0009_big_shop), or PostgreSQL cannot use the index and reads every order.
 */
const searchText = sql`(${orders.number} || ' ' || ${orders.shipName} || ' ' || ${orders.shipPhone} || ' ' || ${orders.shipPin} || ' ' || ${orders.shipCity})`;

/** A search's total counts no further than this: "1,000+ orders" says enough to narrow it down. */
const SEARCH_TOTAL_CAP = 1_000;

/** An order number, an e-mail or a mobile: each found through its own unique or b-tree index. */
function exactMatch(db: Db, q: string): SQL | undefined {
  if (/^PN-\d{4}-\d{6,}$/i.test(q)) return eq(orders.number, q.toUpperCase());
  if (/^[^\s@]+@[^\s@]+$/.test(q)) {
    // Better Auth keeps e-mails lower-cased.
    return inArray(
      orders.userId,
      db.select({ id: users.id }).from(users).where(eq(users.email, q.toLowerCase())),
    );
  }
  const mobile = normalizeMobile(q);
  return mobile ? eq(orders.shipPhone, mobile) : undefined;
}

/**
 * What a search asks for: an exact match when there is one; otherwise a pattern for the trigram indexes,
 * which need three characters (anything shorter matches nothing rather than everything slowly).
 */
type Search = { exact: SQL } | { pattern: string } | { nothing: true };

async function resolveSearch(db: Db, q: string): Promise<Search> {
  const exact = exactMatch(db, q);
  if (exact) {
    const [hit] = await db.select({ one: sql`1` }).from(orders).where(exact).limit(1);
    if (hit) return { exact };
  }
  const phoneLike = /^[\d\s+\-()]+$/.test(q);
  const text = phoneLike ? q.replace(/\D/g, "").slice(-10) : q;
  if (text.length < 3) return { nothing: true };
  return { pattern: `%${escapeLike(text)}%` };
}

type OrderFilters = Pick<AdminOrderQuery, "status" | "from" | "to" | "q">;
type Filters = { base: SQL | undefined; search: Search | undefined };

async function filters(db: Db, query: OrderFilters): Promise<Filters> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, startOfIndianDay(query.from)));
  if (query.to) conditions.push(lt(orders.createdAt, addDays(startOfIndianDay(query.to), 1)));
  const q = query.q?.trim();
  return {
    base: conditions.length ? and(...conditions) : undefined,
    search: q ? await resolveSearch(db, q) : undefined,
  };
}

/**
 * The partial search's two halves, each the newest `limit` matches past the cursor: orders whose number,
 * name, mobile, PIN or city match, and orders of the accounts whose e-mail matches. For each half the
 * planner walks the (created_at, id) index for a common word or takes the trigram index for a rare one,
 * judging from the statistics; measured at a million orders in bench/five-year.bench.ts.
 */
function partialHalves(
  db: Db,
  base: SQL | undefined,
  pattern: string,
  request: KeysetRequest,
  limit: number,
) {
  const keyset = keysetWhere(ORDER_KEYS, request);
  const order = keysetOrder(ORDER_KEYS, request);
  const columns = { id: orders.id, createdAt: orders.createdAt };
  return [
    db
      .select(columns)
      .from(orders)
      .where(and(base, sql`${searchText} ilike ${pattern}`, keyset))
      .orderBy(...order)
      .limit(limit),
    db
      .select(columns)
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(and(base, ilike(users.email, pattern), keyset))
      .orderBy(...order)
      .limit(limit),
  ] as const;
}

/** The condition that picks one keyset page of up to `limit` filtered orders (with the cursor's own condition). */
function pageCondition(db: Db, { base, search }: Filters, request: KeysetRequest, limit: number) {
  const keyset = keysetWhere(ORDER_KEYS, request);
  if (!search) return and(base, keyset);
  if ("nothing" in search) return sql`false`;
  if ("exact" in search) return and(base, search.exact, keyset);
  const [byText, byEmail] = partialHalves(db, base, search.pattern, request, limit);
  const direction = request.before ? sql`asc` : sql`desc`;
  return and(
    sql`${orders.id} = any(array(select m.id from ((${byText}) union (${byEmail})) as m
      order by m.created_at ${direction}, m.id ${direction} limit ${limit}))`,
    keyset,
  );
}

/** The list's total: exact up to 10,000 orders (1,000 for a partial search), then "10,000+". */
async function totalOf(db: Db, { base, search }: Filters): Promise<ListTotal> {
  const all = (where: SQL | undefined) =>
    countUpTo(
      db,
      db
        .select({ one: sql`1`.as("one") })
        .from(orders)
        .where(where)
        .$dynamic(),
    );
  if (!search) return all(base);
  if ("nothing" in search) return { count: 0, exact: true };
  if ("exact" in search) return all(and(base, search.exact));
  const [byText, byEmail] = partialHalves(db, base, search.pattern, {}, SEARCH_TOTAL_CAP + 1);
  const [row] = (
    await db.execute<{ count: number }>(
      sql`select count(*)::int as count from ((${byText}) union (${byEmail})) as m`,
    )
  ).rows;
  return cappedTotal(row?.count ?? 0, SEARCH_TOTAL_CAP);
}

const rowColumns = {
  order: orders,
  email: users.email,
  itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
  cursorAt: cursorAt(orders.createdAt),
};

function presentRow(row: { order: OrderRow; email: string | null; itemCount: number }): AdminOrderRow {
  return {
    number: row.order.number,
    status: row.order.status,
    placedAt: row.order.createdAt.toISOString(),
    customerName: row.order.shipName,
    customerEmail: row.email,
    phone: row.order.shipPhone,
    city: row.order.shipCity,
    itemCount: row.itemCount,
    totalPaise: row.order.totalPaise,
    paymentMethod: row.order.paymentMethod,
    paid: row.order.paidAt !== null,
  };
}

/** One page of the staff's list, newest first, by keyset; the total counts no further than 10,000. */
export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const filtered = await filters(db, query);
  const [rows, total] = await Promise.all([
    db
      .select(rowColumns)
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(pageCondition(db, filtered, query, ADMIN_PAGE_SIZE + 1))
      .orderBy(...keysetOrder(ORDER_KEYS, query))
      .limit(ADMIN_PAGE_SIZE + 1),
    totalOf(db, filtered),
  ]);
  const page = keysetPage(rows, ADMIN_PAGE_SIZE, query, (row) => ({ at: row.cursorAt, id: row.order.id }));
  return { orders: page.items.map(presentRow), pageSize: ADMIN_PAGE_SIZE, total, ...page.cursors };
}

const rupees = (paise: number) => (paise / 100).toFixed(2);
const indianDateTime = (moment: Date) =>
  new Date(moment.getTime() + 330 * 60_000).toISOString().slice(0, 16).replace("T", " ");

const EXPORT_HEADER = [
  "Order number",
  "Placed (IST)",
  "Status",
  "Payment",
  "Paid",
  "Customer e-mail",
  "Name",
  "Mobile",
  "Address",
  "City",
  "State",
  "PIN",
  "Items",
  "Subtotal (INR)",
  "Discount code",
  "Discount (INR)",
  "Shipping (INR)",
  "Total (INR)",
  "Courier",
  "Tracking number",
];

/** Only what the export writes: no order events, no payment ids, no whole rows. */
const exportColumns = {
  id: orders.id,
  cursorAt: cursorAt(orders.createdAt),
  number: orders.number,
  createdAt: orders.createdAt,
  status: orders.status,
  paymentMethod: orders.paymentMethod,
  paid: sql<boolean>`${orders.paidAt} is not null`,
  email: users.email,
  shipName: orders.shipName,
  shipPhone: orders.shipPhone,
  shipLine1: orders.shipLine1,
  shipLine2: orders.shipLine2,
  shipCity: orders.shipCity,
  shipState: orders.shipState,
  shipPin: orders.shipPin,
  items: sql<string>`(select coalesce(string_agg(${orderLines.quantity} || ' x ' || ${orderLines.name}, '; ' order by ${orderLines.position}), '') from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
  subtotalPaise: orders.subtotalPaise,
  discountCode: orders.discountCode,
  discountPaise: orders.discountPaise,
  shippingPaise: orders.shippingPaise,
  totalPaise: orders.totalPaise,
  courier: orders.courier,
  trackingNumber: orders.trackingNumber,
};

type ExportRow = Awaited<ReturnType<typeof exportBatch>>[number];

function exportBatch(db: Db, filtered: Filters, after: KeysetCursor | undefined) {
  return db
    .select(exportColumns)
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(pageCondition(db, filtered, { after }, EXPORT_BATCH))
    .orderBy(...keysetOrder(ORDER_KEYS, {}))
    .limit(EXPORT_BATCH);
}

function csvLine(row: ExportRow): string {
  return [
    row.number,
    indianDateTime(row.createdAt),
    row.status,
    row.paymentMethod === "cod" ? "Cash on delivery" : "Razorpay",
    row.paid ? "yes" : "no",
    row.email,
    row.shipName,
    row.shipPhone,
    [row.shipLine1, row.shipLine2].filter(Boolean).join(", "),
    row.shipCity,
    row.shipState,
    row.shipPin,
    row.items,
    rupees(row.subtotalPaise),
    row.discountCode,
    rupees(row.discountPaise),
    rupees(row.shippingPaise),
    rupees(row.totalPaise),
    row.courier,
    row.trackingNumber,
  ]
    .map(csvCell)
    .join(",");
}

/**
 * The filtered orders as CSV text, newest first, in pieces of up to EXPORT_BATCH rows read by keyset: memory
 * stays flat whatever the export's length, and each query is a short index range scan (no transaction held
 * open for the whole download). The first piece is read before anything is yielded, so a database failure
 * still becomes an error response rather than a cut-off file.
 */
export async function exportOrdersCsv(db: Db, query: OrderFilters): Promise<AsyncGenerator<string>> {
  const filtered = await filters(db, query);
  const first = await exportBatch(db, filtered, undefined);
  async function* pieces() {
    let batch = first;
    yield `${EXPORT_HEADER.map(csvCell).join(",")}\r\n`;
    while (batch.length > 0) {
      yield `${batch.map(csvLine).join("\r\n")}\r\n`;
      const last = batch.at(-1);
      if (batch.length < EXPORT_BATCH || !last) return;
      batch = await exportBatch(db, filtered, { at: last.cursorAt, id: last.id });
    }
  }
  return pieces();
}

export async function getAdminOrderDetail(db: Db, number: string, now: Date): Promise<AdminOrderDetail> {
  const [row] = await db
    .select({ order: orders, email: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, number));
  if (!row) throw notFound("There is no order with that number.");
  const { order } = row;
  const [{ linesOf }, eventRows, documents] = await Promise.all([
    loadOrderParts(db, [order.id]),
    db
      .select({ event: orderEvents, actorEmail: users.email })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorUserId))
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    documentNumbersOf(db, order.id),
  ]);
  const {
    actions: _actions,
    events: _events,
    ...detail
  } = presentOrderDetail(order, linesOf(order.id), [], {
    now,
    paymentsOpen: false,
    documents,
  });
  return {
    ...detail,
    customerEmail: row.email,
    events: eventRows.map(({ event, actorEmail }) => ({ ...presentEvent(event), actorEmail })),
    razorpayPaymentId: order.razorpayPaymentId,
    refundReference: order.refundReference,
    nextStatuses: nextStatuses(lifecycleOf(order), "admin", now),
  };
}

export async function listStock(db: Db, threshold: number): Promise<StockList> {
  const [productRows, comboRows] = await Promise.all([
    db
      .select({ id: products.slug, name: products.name, stock: products.stock, active: products.active })
      .from(products)
      .orderBy(asc(products.name)),
    db
      .select({ id: combos.id, name: combos.title, stock: combos.stock, active: combos.active })
      .from(combos)
      .orderBy(asc(combos.title)),
  ]);
  const present = (kind: StockItem["kind"]) => (row: (typeof productRows)[number]) => ({
    kind,
    ...row,
    low: row.stock <= threshold,
  });
  return {
    items: [...productRows.map(present("product")), ...comboRows.map(present("combo"))],
    lowStockThreshold: threshold,
  };
}

/**
 * Sets a stock figure only if it still is what the admin saw: an order placed meanwhile has taken stock,
 * and overwriting would hand out jars that are already sold.
 */
export async function updateStock(
  db: Db,
  kind: StockItem["kind"],
  id: string,
  change: { stock: number; previousStock: number },
  threshold: number,
  actor: AuditActor,
): Promise<StockItem> {
  const table = kind === "product" ? products : combos;
  const key = kind === "product" ? products.slug : combos.id;
  const name = kind === "product" ? products.name : combos.title;
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(table)
      .set({ stock: change.stock })
      .where(and(eq(key, id), eq(table.stock, change.previousStock)))
      .returning({ id: key, name, stock: table.stock, active: table.active });
    if (updated) {
      const [before, after] = [{ stock: change.previousStock }, { stock: updated.stock }];
      await recordAudit(tx, {
        actor,
        entityType: "stock",
        entityId: `${kind}:${id}`,
        action: "edit",
        before,
        after,
      });
    }
    return updated;
  });
  if (row) return { kind, ...row, low: row.stock <= threshold };
  const [current] = await db.select({ stock: table.stock }).from(table).where(eq(key, id));
  if (!current) throw notFound(`There is no ${kind} ${id}.`);
  throw httpError(
    409,
    "stock_changed",
    `The stock changed to ${current.stock} since you loaded the page (orders were placed). Check it and save again.`,
  );
}

/** Figures for the admin dashboard, in Indian days; revenue counts orders that are still sales. */
export async function dashboardFigures(db: Db, now: Date, threshold: number): Promise<DashboardFigures> {
  const today = indianDate(now);
  // Local-noon dates, so date-fns day arithmetic never slips over midnight.
  const todayNoon = new Date(`${today}T12:00:00`);
  const firstDay = format(subDays(todayNoon, 29), "yyyy-MM-dd");
  const weekStart = format(startOfWeek(todayNoon, { weekStartsOn: 1 }), "yyyy-MM-dd");

  const [daily, statusRows, [low]] = await Promise.all([
    dailySales(db, firstDay),
    statusCounts(db),
    db
      .execute<{ count: number }>(
        sql`select ((select count(*) from ${products} where ${products.active} and ${products.stock} <= ${threshold})
          + (select count(*) from ${combos} where ${combos.active} and ${combos.stock} <= ${threshold}))::int as count`,
      )
      .then((result) => result.rows),
  ]);

  const byDay = new Map(daily.map((row) => [row.day, row]));
  const revenueByDay = Array.from({ length: 30 }, (_, index) => {
    const date = format(subDays(todayNoon, 29 - index), "yyyy-MM-dd");
    const row = byDay.get(date);
    return { date, orders: row?.orders ?? 0, revenuePaise: row?.revenuePaise ?? 0 };
  });
  const sum = (days: typeof revenueByDay) => ({
    orders: days.reduce((total, each) => total + each.orders, 0),
    revenuePaise: days.reduce((total, each) => total + each.revenuePaise, 0),
  });
  const counts = new Map(statusRows.map((row) => [row.status, row.count]));
  return {
    today: sum(revenueByDay.filter((each) => each.date === today)),
    week: sum(revenueByDay.filter((each) => each.date >= weekStart)),
    revenueByDay,
    byStatus: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    lowStock: low?.count ?? 0,
  };
}

/** Delta rows beyond which reading them folds them into one row per status or day. */
const DELTA_ROWS_TO_FOLD = 1_000;

/**
 * Orders per status from the trigger-kept deltas (migration 0009): a sum over a few rows, exact at every
 * moment because the deltas are written in the same transaction as the order change.
 */
async function statusCounts(db: Db): Promise<{ status: OrderStatus; count: number }[]> {
  const rows = await db
    .select({
      status: orderStatusDeltas.status,
      count: sql<number>`sum(${orderStatusDeltas.delta})::int`,
      rows: sql<number>`count(*)::int`,
    })
    .from(orderStatusDeltas)
    .groupBy(orderStatusDeltas.status);
  if (rows.reduce((sum, row) => sum + row.rows, 0) > DELTA_ROWS_TO_FOLD) await foldDeltas(db);
  return rows;
}

/** Sales per Indian day from `firstDay` on, from the trigger-kept day deltas: exact, today included. */
async function dailySales(db: Db, firstDay: string) {
  const rows = await db
    .select({
      day: sql<string>`${orderDayDeltas.day}::text`,
      orders: sql<number>`sum(${orderDayDeltas.orders})::int`,
      revenuePaise: sql<number>`sum(${orderDayDeltas.revenuePaise})`.mapWith(Number),
      rows: sql<number>`count(*)::int`,
    })
    .from(orderDayDeltas)
    .where(gte(orderDayDeltas.day, firstDay))
    .groupBy(orderDayDeltas.day);
  if (rows.reduce((sum, row) => sum + row.rows, 0) > DELTA_ROWS_TO_FOLD) await foldDeltas(db);
  return rows;
}

/**
 * Replaces the deltas by their sums, one statement per table; a transaction-level advisory lock lets one
 * fold run at a time, and readers see either the old rows or the sums, never a mix.
 */
async function foldDeltas(db: Db) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('order_deltas')) as locked`,
    );
    if (!rows[0]?.locked) return;
    await tx.execute(sql`with gone as (delete from ${orderStatusDeltas} returning status, delta)
      insert into ${orderStatusDeltas} (status, delta) select status, sum(delta) from gone group by status`);
    await tx.execute(sql`with gone as (delete from ${orderDayDeltas} returning day, orders, revenue_paise)
      insert into ${orderDayDeltas} (day, orders, revenue_paise)
      select day, sum(orders), sum(revenue_paise) from gone group by day
      having sum(orders) <> 0 or sum(revenue_paise) <> 0`);
  });
}
