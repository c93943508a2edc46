import { addDays } from "date-fns/addDays";
import { format } from "date-fns/format";
import { startOfWeek } from "date-fns/startOfWeek";
import { subDays } from "date-fns/subDays";
import { and, asc, type Column, eq, gte, ilike, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { normalizeMobile } from "../../common/india.ts";
import { INDIA_TIME_ZONE, indianDate, startOfIndianDay } from "../../common/india-time.ts";
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
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { cashOf } from "../cod/cod.data.ts";
import { csvRow } from "../csv.ts";
import type { Db } from "../db/client.ts";
import {
  cappedTotal,
  countUpTo,
  cursorAt,
  type KeysetRequest,
  keysetOrder,
  keysetPage,
  keysetWhere,
} from "../db/keyset.ts";
import {
  combos,
  orderDayDeltas,
  orderEvents,
  orderLines,
  orderSearchTerms,
  orderStatusDeltas,
  orders,
  products,
  users,
} from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
import { documentNumbersOf } from "../invoices/tax-documents.ts";
import { orderPaidAt, orderWithPayment, type PaidOrder } from "../money/ledger.ts";
import {
  lifecycleOf,
  loadOrderParts,
  parcelBackSql,
  presentEvent,
  presentOrderDetail,
} from "./orders.data.ts";

export const ADMIN_PAGE_SIZE = 25;
/** Rows the export reads per query: enough to keep round trips few, few enough to keep memory flat. */
const EXPORT_BATCH = 5_000;

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
async function exactMatch(db: Db, q: string): Promise<SQL | undefined> {
  if (/^PN-\d{4}-\d{6,}$/i.test(q)) return eq(orders.number, q.toUpperCase());
  if (/^[^\s@]+@[^\s@]+$/.test(q)) {
    // Better Auth keeps e-mails lower-cased, and so does a guest's order. An account's orders include the
    // guest orders it took in when it was confirmed; an e-mail with no account can only be a guest's.
    const email = q.toLowerCase();
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return account ? eq(orders.userId, account.id) : eq(orders.guestEmail, email);
  }
  const mobile = normalizeMobile(q);
  return mobile ? eq(orders.shipPhone, mobile) : undefined;
}

/**
 * What a search asks for: an exact match when there is one; otherwise a pattern for the trigram indexes,
 * which need three characters (anything shorter matches nothing rather than everything slowly). A pattern
 * without digits (a part of a name or city) comes with the names and cities it matches, looked up among the
 * few thousand distinct terms (docs/decisions/047) instead of across every order; `terms` is undefined when
 * the pattern is a part of a number, mobile or PIN, or matches so many terms that it is better walked in time
 * order over every field; and empty when it can only be a part of an e-mail.
 */
type Search =
  | { exact: SQL }
  | { pattern: string; terms: { names: string[]; cities: string[] } | undefined }
  | { nothing: true };

/** Beyond this many matching names and cities the word is common: its orders are found walking newest first. */
const MAX_TERMS = 1_000;

async function resolveSearch(db: Db, q: string): Promise<Search> {
  const exact = await exactMatch(db, q);
  if (exact) {
    const [hit] = await db.select({ one: sql`1` }).from(orders).where(exact).limit(1);
    if (hit) return { exact };
  }
  const phoneLike = /^[\d\s+\-()]+$/.test(q);
  const text = phoneLike ? q.replace(/\D/g, "").slice(-10) : q;
  if (text.length < 3) return { nothing: true };
  const pattern = `%${escapeLike(text)}%`;
  // Digits with nothing but the number's own "PN" and dashes: a part of a number, mobile or PIN.
  if (/\d/.test(text) && /^(pn)?[\d\s-]*$/i.test(text)) return { pattern, terms: undefined };
  // Digits among other letters (aisha.k.1028) fit no name, city, number, mobile or PIN: only an e-mail.
  if (/\d/.test(text)) return { pattern, terms: { names: [], cities: [] } };
  const matched = await db
    .select({ field: orderSearchTerms.field, term: orderSearchTerms.term })
    .from(orderSearchTerms)
    .where(ilike(orderSearchTerms.term, pattern))
    .limit(MAX_TERMS + 1);
  if (matched.length > MAX_TERMS) return { pattern, terms: undefined };
  const of = (field: string) => matched.filter((row) => row.field === field).map((row) => row.term);
  return { pattern, terms: { names: of("name"), cities: of("city") } };
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
 * The partial search's parts, each the newest `limit` matches past the cursor: orders of the matching names
 * and cities (read from their (term, created_at, id) indexes), or for a pattern with digits or a common word
 * the orders whose number, name, mobile, PIN or city match (the trigram index, or the (created_at, id) index
 * for a common word, as the planner judges); and orders of the accounts whose e-mail matches. Measured at a
 * million orders in bench/five-year.bench.ts. Unordered parts serve the capped total: any `limit` matches of
 * each part count the same, and the planner may then go from the matching accounts to their orders and stop,
 * instead of walking every order newest first to find the oldest of a thousand.
 */
function partialParts(
  db: Db,
  base: SQL | undefined,
  search: Extract<Search, { pattern: string }>,
  request: KeysetRequest,
  limit: number,
  ordered = true,
) {
  const keyset = keysetWhere(ORDER_KEYS, request);
  const order = ordered ? keysetOrder(ORDER_KEYS, request) : [];
  const columns = { id: orders.id, createdAt: orders.createdAt };
  const { pattern, terms } = search;
  const byTerms = terms && [
    ...(terms.names.length ? [inArray(orders.shipName, terms.names)] : []),
    ...(terms.cities.length ? [inArray(orders.shipCity, terms.cities)] : []),
  ];
  const byText =
    byTerms === undefined
      ? sql`${searchText} ilike ${pattern}`
      : byTerms.length > 0
        ? or(...byTerms)
        : undefined;
  return [
    ...(byText
      ? [
          db
            .select(columns)
            .from(orders)
            .where(and(base, byText, keyset))
            .orderBy(...order)
            .limit(limit),
        ]
      : []),
    db
      .select(columns)
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(and(base, ilike(users.email, pattern), keyset))
      .orderBy(...order)
      .limit(limit),
  ];
}

/** The parts' rows as one union (a part alone needs none). */
const unionOf = (parts: ReturnType<typeof partialParts>) =>
  sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union `,
  );

/** The condition that picks one keyset page of up to `limit` filtered orders (with the cursor's own condition). */
function pageCondition(db: Db, { base, search }: Filters, request: KeysetRequest, limit: number) {
  const keyset = keysetWhere(ORDER_KEYS, request);
  if (!search) return and(base, keyset);
  if ("nothing" in search) return sql`false`;
  if ("exact" in search) return and(base, search.exact, keyset);
  const parts = partialParts(db, base, search, request, limit);
  const direction = request.before ? sql`asc` : sql`desc`;
  return and(
    sql`${orders.id} = any(array(select m.id from (${unionOf(parts)}) as m
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
  const parts = partialParts(db, base, search, {}, SEARCH_TOTAL_CAP + 1, false);
  const [row] = (
    await db.execute<{ count: number }>(sql`select count(*)::int as count from (${unionOf(parts)}) as m`)
  ).rows;
  return cappedTotal(row?.count ?? 0, SEARCH_TOTAL_CAP);
}

/** The customer's e-mail: their account's, or the one a guest ordered with. */
const customerEmail = sql<string | null>`coalesce(${users.email}, ${orders.guestEmail})`;

const rowColumns = {
  order: orderWithPayment,
  email: customerEmail,
  itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
  cursorAt: cursorAt(orders.createdAt),
  parcelBack: sql<boolean>`(${orders.status} = 'returned_to_origin' and ${parcelBackSql})`,
};

function presentRow(row: {
  order: PaidOrder;
  email: string | null;
  itemCount: number;
  parcelBack: boolean;
}): AdminOrderRow {
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
    parcelBack: row.parcelBack,
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

/** Paise as rupees with two decimals, in SQL: 119900 is 1199.00. */
const rupeesText = (paise: Column) => sql`(${paise} / 100.0)::numeric(14, 2)::text`;

/**
 * One order's CSV line, built by the database (csv_cell, migration 0022): the export reads only the columns
 * it writes, the items as one string_agg, and the server only joins lines, so a batch costs no row objects,
 * dates or per-cell work in JavaScript. The cells are those of EXPORT_HEADER, in its order. The e-mail and
 * the items come from lateral lookups, not from expressions inside csv_cell: the inlined function names its
 * argument several times, and a subquery there would run several times per order.
 */
function exportLine(account: { email: SQL.Aliased<string> }, lines: { items: SQL.Aliased<string> }) {
  // The number, status, date, payment and the three amounts a check keeps from going negative are made by
  // the shop itself and cannot start a formula or need quotes; every other cell goes through csv_cell.
  const cells = [
    orders.number,
    sql`to_char(${orders.createdAt} at time zone ${INDIA_TIME_ZONE}, 'YYYY-MM-DD HH24:MI')`,
    orders.status,
    sql`case when ${orders.paymentMethod} = 'cod' then 'Cash on delivery' else 'Razorpay' end`,
    sql`case when ${orderPaidAt} is null then 'no' else 'yes' end`,
    ...[
      sql`coalesce(${account.email}, ${orders.guestEmail})`,
      orders.shipName,
      orders.shipPhone,
      sql`concat_ws(', ', nullif(${orders.shipLine1}, ''), nullif(${orders.shipLine2}, ''))`,
      orders.shipCity,
      orders.shipState,
      orders.shipPin,
      sql`coalesce(${lines.items}, '')`,
    ].map((cell) => sql`csv_cell(${cell})`),
    rupeesText(orders.subtotalPaise),
    sql`csv_cell(${orders.discountCode})`,
    rupeesText(orders.discountPaise),
    rupeesText(orders.shippingPaise),
    sql`csv_cell(${rupeesText(orders.totalPaise)})`,
    sql`csv_cell(${orders.courier})`,
    sql`csv_cell(${orders.trackingNumber})`,
  ];
  return sql<string>`concat_ws(',', ${sql.join(cells, sql`, `)})`;
}

function exportBatch(db: Db, filtered: Filters, after: KeysetCursor | undefined, size: number) {
  // Lookups per order rather than joins: a join of a 5,000-order batch may be planned as a hash of every account.
  const account = db
    .select({ email: sql<string>`${users.email}`.as("email") })
    .from(users)
    .where(eq(users.id, orders.userId))
    .as("account");
  const lines = db
    .select({
      items:
        sql<string>`string_agg(${orderLines.quantity} || ' x ' || ${orderLines.name}, '; ' order by ${orderLines.position})`.as(
          "items",
        ),
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orders.id))
    .as("lines");
  return db
    .select({ id: orders.id, cursorAt: cursorAt(orders.createdAt), line: exportLine(account, lines) })
    .from(orders)
    .leftJoinLateral(account, sql`true`)
    .leftJoinLateral(lines, sql`true`)
    .where(pageCondition(db, filtered, { after }, size))
    .orderBy(...keysetOrder(ORDER_KEYS, {}))
    .limit(size);
}

/**
 * The filtered orders as CSV text, newest first, in pieces of up to `batchSize` rows read by keyset: memory
 * stays flat whatever the export's length, and each query is a short index range scan (no transaction held
 * open for the whole download). The first piece is read before anything is yielded, so a database failure
 * still becomes an error response rather than a cut-off file.
 */
export async function exportOrdersCsv(
  db: Db,
  query: OrderFilters,
  batchSize = EXPORT_BATCH,
): Promise<AsyncGenerator<string>> {
  const filtered = await filters(db, query);
  const first = await exportBatch(db, filtered, undefined, batchSize);
  async function* pieces() {
    let batch = first;
    yield `${csvRow(EXPORT_HEADER)}\r\n`;
    while (batch.length > 0) {
      const last = batch.at(-1);
      // The next batch is read while this one is handed on, so the database and the download overlap.
      const next =
        batch.length === batchSize && last
          ? exportBatch(db, filtered, { at: last.cursorAt, id: last.id }, batchSize).execute()
          : undefined;
      // Handled here too: a download cancelled meanwhile never awaits it, and its failure must not go unhandled.
      next?.catch(() => undefined);
      yield `${batch.map((row) => row.line).join("\r\n")}\r\n`;
      if (!next) return;
      batch = await next;
    }
  }
  return pieces();
}

export async function getAdminOrderDetail(db: Db, number: string, now: Date): Promise<AdminOrderDetail> {
  const [row] = await db
    .select({ order: orderWithPayment, email: customerEmail })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, number));
  if (!row) throw notFound("There is no order with that number.");
  const { order } = row;
  const [{ linesOf, parcelBackOf }, eventRows, documents] = await Promise.all([
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
    parcelBack: parcelBackOf(order.id),
  });
  return {
    ...detail,
    customerEmail: row.email,
    events: eventRows.map(({ event, actorEmail }) => ({ ...presentEvent(event), actorEmail })),
    razorpayPaymentId: order.razorpayPaymentId,
    refundReference: order.refundReference,
    refundMethod: order.refundMethod,
    cash: order.paymentMethod === "cod" ? await cashOf(db, order.id) : null,
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
