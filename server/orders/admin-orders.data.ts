import { addDays, format, startOfWeek, subDays } from "date-fns";
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { nextStatuses, ORDER_STATUSES, SALE_STATUSES } from "../../common/order-lifecycle.ts";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderRow,
  DashboardFigures,
  StockItem,
  StockList,
} from "../../common/orders.ts";
import type { AdminOrderQuery } from "../../common/schemas/orders.ts";
import type { Db } from "../db/client.ts";
import { combos, orderEvents, orderLines, orders, products, users } from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
import {
  lifecycleOf,
  loadOrderParts,
  type OrderRow,
  presentEvent,
  presentOrderDetail,
} from "./orders.data.ts";

export const ADMIN_PAGE_SIZE = 25;
const EXPORT_LIMIT = 10_000;

/** India keeps one offset all year, so a day in India is a fixed 24-hour span of UTC. */
const IST = "+05:30";
const startOfIndianDay = (date: string) => new Date(`${date}T00:00:00${IST}`);
const indianDate = (moment: Date) => new Date(moment.getTime() + 330 * 60_000).toISOString().slice(0, 10);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

function filters(query: Omit<AdminOrderQuery, "page">): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, startOfIndianDay(query.from)));
  if (query.to) conditions.push(lt(orders.createdAt, addDays(startOfIndianDay(query.to), 1)));
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    const matches: SQL[] = [
      ilike(orders.number, pattern),
      ilike(users.email, pattern),
      ilike(orders.shipName, pattern),
    ];
    const digits = q.replace(/\D/g, "");
    if (digits.length >= 4 && !/[a-z@]/i.test(q))
      matches.push(ilike(orders.shipPhone, `%${digits.slice(-10)}%`));
    const any = or(...matches);
    if (any) conditions.push(any);
  }
  return conditions.length ? and(...conditions) : undefined;
}

const rowColumns = {
  order: orders,
  email: users.email,
  itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
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

export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const where = filters(query);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select(rowColumns)
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.number))
      .limit(ADMIN_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_PAGE_SIZE),
    db.select({ total: count() }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where),
  ]);
  return { orders: rows.map(presentRow), page: query.page, pageSize: ADMIN_PAGE_SIZE, total };
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

export async function exportOrdersCsv(db: Db, query: Omit<AdminOrderQuery, "page">): Promise<string> {
  const rows = await db
    .select({ order: orders, email: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(filters(query))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(EXPORT_LIMIT);
  const { linesOf } = await loadOrderParts(
    db,
    rows.map((row) => row.order.id),
  );
  const header = [
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
  const lines = rows.map(({ order, email }) =>
    [
      order.number,
      indianDateTime(order.createdAt),
      order.status,
      order.paymentMethod === "cod" ? "Cash on delivery" : "Razorpay",
      order.paidAt ? "yes" : "no",
      email,
      order.shipName,
      order.shipPhone,
      [order.shipLine1, order.shipLine2].filter(Boolean).join(", "),
      order.shipCity,
      order.shipState,
      order.shipPin,
      linesOf(order.id)
        .map((line) => `${line.quantity} x ${line.name}`)
        .join("; "),
      rupees(order.subtotalPaise),
      order.discountCode,
      rupees(order.discountPaise),
      rupees(order.shippingPaise),
      rupees(order.totalPaise),
      order.courier,
      order.trackingNumber,
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[header.map(csvCell).join(","), ...lines].join("\r\n")}\r\n`;
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
    db
      .select({ status: orders.status, count: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.status),
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
