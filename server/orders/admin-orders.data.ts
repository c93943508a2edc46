import { addDays, format, startOfWeek, subDays } from "date-fns";
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { normalizeMobile } from "../../common/india.ts";
import type { KeysetCursor } from "../../common/lists.ts";
import {
  nextStatuses,
  ORDER_STATUSES,
  type OrderStatus,
  SALE_STATUSES,
} from "../../common/order-lifecycle.ts";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderRow,
  DashboardFigures,
  StockItem,
  StockList,
} from "../../common/orders.ts";
import type { AdminOrderQuery } from "../../common/schemas/orders.ts";
import { countUpTo, cursorAt, keysetOrder, keysetPage, keysetWhere } from "../admin/keyset.ts";
import type { Db } from "../db/client.ts";
import { combos, orderEvents, orderLines, orderStatusDeltas, orders, products, users } from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
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
 * (migration 0006_big_shop), or PostgreSQL cannot use the index and reads every order.
 */
const searchText = (alias: string) =>
  sql.raw(
    `(${alias}.number || ' ' || ${alias}.ship_name || ' ' || ${alias}.ship_phone || ' ' || ${alias}.ship_pin || ' ' || ${alias}.ship_city)`,
  );

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
 * Part of a number, name, mobile, PIN, city or e-mail, through the trigram indexes: the matching ids are
 * gathered first (bitmap scans of the GIN indexes), so the list never walks all orders testing each.
 * A trigram index needs three characters; anything shorter matches nothing rather than everything slowly.
 */
function partialMatch(q: string): SQL {
  const phoneLike = /^[\d\s+\-()]+$/.test(q);
  const text = phoneLike ? q.replace(/\D/g, "").slice(-10) : q;
  if (text.length < 3) return sql`false`;
  const pattern = `%${escapeLike(text)}%`;
  return sql`${orders.id} = any(array(
    select o.id from orders o where ${searchText("o")} ilike ${pattern}
    union
    select o.id from users u join orders o on o.user_id = u.id where u.email ilike ${pattern}))`;
}

/** An exact match wins when there is one; otherwise the partial search. */
async function searchCondition(db: Db, q: string): Promise<SQL> {
  const exact = exactMatch(db, q);
  if (exact) {
    const [hit] = await db.select({ one: sql`1` }).from(orders).where(exact).limit(1);
    if (hit) return exact;
  }
  return partialMatch(q);
}

type OrderFilters = Pick<AdminOrderQuery, "status" | "from" | "to" | "q">;

async function filters(db: Db, query: OrderFilters): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, startOfIndianDay(query.from)));
  if (query.to) conditions.push(lt(orders.createdAt, addDays(startOfIndianDay(query.to), 1)));
  const q = query.q?.trim();
  if (q) conditions.push(await searchCondition(db, q));
  return conditions.length ? and(...conditions) : undefined;
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
  const where = await filters(db, query);
  const [rows, total] = await Promise.all([
    db
      .select(rowColumns)
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(and(where, keysetWhere(ORDER_KEYS, query)))
      .orderBy(...keysetOrder(ORDER_KEYS, query))
      .limit(ADMIN_PAGE_SIZE + 1),
    countUpTo(
      db,
      db
        .select({ one: sql`1`.as("one") })
        .from(orders)
        .where(where)
        .$dynamic(),
    ),
  ]);
  const page = keysetPage(rows, ADMIN_PAGE_SIZE, query, (row) => ({ at: row.cursorAt, id: row.order.id }));
  return { orders: page.items.map(presentRow), pageSize: ADMIN_PAGE_SIZE, total, ...page.cursors };
}

/** A cell as spreadsheet programs read it; a leading = + - @ is defused so a name cannot run as a formula. */
function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

function exportBatch(db: Db, where: SQL | undefined, after: KeysetCursor | undefined) {
  return db
    .select(exportColumns)
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(and(where, keysetWhere(ORDER_KEYS, { after })))
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
  const where = await filters(db, query);
  const first = await exportBatch(db, where, undefined);
  async function* pieces() {
    let batch = first;
    yield `${EXPORT_HEADER.map(csvCell).join(",")}\r\n`;
    while (batch.length > 0) {
      yield `${batch.map(csvLine).join("\r\n")}\r\n`;
      const last = batch.at(-1);
      if (batch.length < EXPORT_BATCH || !last) return;
      batch = await exportBatch(db, where, { at: last.cursorAt, id: last.id });
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
  const [{ linesOf }, eventRows] = await Promise.all([
    loadOrderParts(db, [order.id]),
    db
      .select({ event: orderEvents, actorEmail: users.email })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorUserId))
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
  ]);
  const {
    actions: _actions,
    events: _events,
    ...detail
  } = presentOrderDetail(order, linesOf(order.id), [], {
    now,
    paymentsOpen: false,
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
): Promise<StockItem> {
  const table = kind === "product" ? products : combos;
  const key = kind === "product" ? products.slug : combos.id;
  const name = kind === "product" ? products.name : combos.title;
  const [row] = await db
    .update(table)
    .set({ stock: change.stock })
    .where(and(eq(key, id), eq(table.stock, change.previousStock)))
    .returning({ id: key, name, stock: table.stock, active: table.active });
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

  const day = sql<string>`to_char(${orders.createdAt} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`;
  const [daily, statusRows, [low]] = await Promise.all([
    db
      .select({
        day,
        orders: sql<number>`count(*)::int`,
        revenuePaise: sql<number>`coalesce(sum(${orders.totalPaise}), 0)::int`,
      })
      .from(orders)
      .where(
        and(gte(orders.createdAt, startOfIndianDay(firstDay)), inArray(orders.status, [...SALE_STATUSES])),
      )
      .groupBy(day),
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

/** Delta rows beyond which reading the counts folds them into one row per status. */
const DELTA_ROWS_TO_FOLD = 1_000;

/**
 * Orders per status from the trigger-kept deltas (migration 0006): a sum over a few rows, exact at every
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
  if (rows.reduce((sum, row) => sum + row.rows, 0) > DELTA_ROWS_TO_FOLD) await foldStatusDeltas(db);
  return rows;
}

/**
 * Replaces the deltas by their sums in one statement; a transaction-level advisory lock lets one fold run
 * at a time, and readers see either all the old rows or the sums, never a mix.
 */
async function foldStatusDeltas(db: Db) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('order_status_deltas')) as locked`,
    );
    if (!rows[0]?.locked) return;
    await tx.execute(sql`with gone as (delete from ${orderStatusDeltas} returning status, delta)
      insert into ${orderStatusDeltas} (status, delta) select status, sum(delta) from gone group by status`);
  });
}
