import { format, subDays } from "date-fns";
import { eq, sql } from "drizzle-orm";
import type { SessionUser } from "../../common/account.ts";
import type { SalesFigures, SalesPeriod, SalesQuery, SalesTotals } from "../../common/analytics.ts";
import { indianDate, startOfIndianDay } from "../../common/india-time.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { analyticsSettings } from "../db/schema.ts";
import { httpError } from "../errors.ts";

/** The longest lists the figures hold; the CSV files hold the same rows. */
const ITEM_LIMIT = 20;
const CODE_LIMIT = 20;

const DAY_MS = 24 * 3600 * 1000;

/** Days between two YYYY-MM-DD days, counting both. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/** A day `days` before or after, by the calendar (noon, so no clock change slips a day). */
const shift = (day: string, days: number) =>
  format(subDays(new Date(`${day}T12:00:00`), -days), "yyyy-MM-dd");

/** The Indian days a period covers, and the period of the same length just before it. */
export function periodOf(query: SalesQuery, now: Date) {
  const today = indianDate(now);
  const key: SalesPeriod = query.period;
  const spans: Record<Exclude<SalesPeriod, "range">, number> = { today: 1, "7d": 7, "30d": 30 };
  const to = key === "range" ? (query.to as string) : today;
  const from = key === "range" ? (query.from as string) : shift(today, 1 - spans[key]);
  const days = daysBetween(from, to);
  const previous = { from: shift(from, -days), to: shift(from, -1) };
  return { period: { key, from, to, days }, previous };
}

const totalsOf = (orders: number, salesPaise: number): SalesTotals => ({
  orders,
  salesPaise,
  averagePaise: orders ? Math.round(salesPaise / orders) : 0,
});

/**
 * "Sales at a glance" for a period (docs/decisions/080): every sum is PostgreSQL's. A sale is an order placed in
 * the period (India's days) whose status is a sale (SALE_STATUSES: not waiting for payment, cancelled, returned
 * or refunded), valued at its total as the shopper paid it, GST and delivery included, as the dashboard's
 * revenue always was; the figure net of GST is the tax documents' taxable value, invoices less credit notes
 * issued in the period, exactly as the GST returns count it. Orders and sales per day come from the
 * trigger-kept day deltas (migration 0009); the breakdowns read the sale orders of the period from their
 * covering index (migration 0044), so they cost the period's orders, not the shop's.
 */
export async function salesFigures(db: Db, query: SalesQuery, now = new Date()): Promise<SalesFigures> {
  const { period, previous } = periodOf(query, now);
  const start = startOfIndianDay(period.from).toISOString();
  const end = new Date(startOfIndianDay(period.to).getTime() + DAY_MS).toISOString();
  const inPeriod = sql`order_is_sale(o.status) and o.created_at >= ${start}::timestamptz and o.created_at < ${end}::timestamptz`;

  const [days, documents, items, states, customers, payments, codes, refunds] = await Promise.all([
    db.execute<{ day: string; orders: number; sales: string }>(sql`
      select day::text as day, sum(orders)::int as orders, sum(revenue_paise)::bigint as sales
      from order_day_deltas where day between ${previous.from}::date and ${period.to}::date
      group by day`),
    db.execute<{ kind: string; count: number; taxable: string; total: string }>(sql`
      select kind, count(*)::int as count, coalesce(sum(taxable_paise), 0)::bigint as taxable,
        coalesce(sum(total_paise), 0)::bigint as total
      from tax_documents where issued_at >= ${start}::timestamptz and issued_at < ${end}::timestamptz
      group by kind`),
    db.execute<{
      item_id: string;
      kind: "product" | "combo";
      name: string;
      units: number;
      revenue: string;
    }>(sql`
      select l.item_id, l.kind, max(l.name) as name, sum(l.quantity)::int as units,
        sum(l.line_total_paise)::bigint as revenue
      from orders o join order_lines l on l.order_id = o.id
      where ${inPeriod}
      group by l.item_id, l.kind
      order by revenue desc, units desc, l.item_id
      limit ${ITEM_LIMIT}`),
    db.execute<{ state: string; orders: number; sales: string }>(sql`
      select o.ship_state as state, count(*)::int as orders, sum(o.total_paise)::bigint as sales
      from orders o where ${inPeriod}
      group by o.ship_state order by sales desc, state`),
    // A customer is the account, else the guest's e-mail, else (an account since deleted) the mobile.
    // Returning: bought before the period; repeat: bought more than once, before or within it.
    db.execute<{ customers: number; returning: number; repeaters: number }>(sql`
      with buyers as (
        select o.user_id, o.guest_email, o.ship_phone, count(*) as orders
        from orders o where ${inPeriod}
        group by 1, 2, 3
      ), people as (
        select coalesce(user_id, guest_email, ship_phone) as who, sum(orders) as orders,
          bool_or(case
            when user_id is not null then exists (select 1 from orders e where e.user_id = buyers.user_id
              and e.created_at < ${start}::timestamptz and order_is_sale(e.status))
            when guest_email is not null then exists (select 1 from orders e where e.guest_email = buyers.guest_email
              and e.created_at < ${start}::timestamptz and order_is_sale(e.status))
            else exists (select 1 from orders e where e.ship_phone = buyers.ship_phone and e.user_id is null
              and e.guest_email is null and e.created_at < ${start}::timestamptz and order_is_sale(e.status))
          end) as came_back
        from buyers group by 1
      )
      select count(*)::int as customers, count(*) filter (where came_back)::int as returning,
        count(*) filter (where came_back or orders > 1)::int as repeaters
      from people`),
    db.execute<{ method: "cod" | "razorpay"; orders: number; sales: string }>(sql`
      select o.payment_method as method, count(*)::int as orders, sum(o.total_paise)::bigint as sales
      from orders o where ${inPeriod}
      group by o.payment_method order by method`),
    db.execute<{ code: string; orders: number; discount: string; sales: string }>(sql`
      select o.discount_code as code, count(*)::int as orders, sum(o.discount_paise)::bigint as discount,
        sum(o.total_paise)::bigint as sales
      from orders o where ${inPeriod} and o.discount_code is not null
      group by o.discount_code order by discount desc, code
      limit ${CODE_LIMIT}`),
    // Refunds as the ledger records them (decision 088): what went back, when it went back, whatever the
    // order's status now says; an edit's partial refund counts too. A refund's order is counted once per way.
    db.execute<{ way: "online" | "byHand" | "latePayments" | "all"; orders: number; amount: string }>(sql`
      with refunds as (
        select case when kind = 'cash_refund' then 'byHand' when applied then 'online' else 'latePayments' end
          as way, order_id, amount_paise
        from money_ledger
        where kind in ('online_refund', 'cash_refund')
          and created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
      )
      select way, count(distinct order_id)::int as orders, sum(amount_paise)::bigint as amount
      from refunds group by way
      union all
      select 'all', count(distinct order_id)::int, coalesce(sum(amount_paise), 0)::bigint
      from refunds where way <> 'latePayments'`),
  ]);

  const perDay = new Map(days.rows.map((row) => [row.day, row]));
  const sum = (from: string, to: string) => {
    let orders = 0;
    let sales = 0;
    for (const row of days.rows) {
      if (row.day >= from && row.day <= to) {
        orders += row.orders;
        sales += Number(row.sales);
      }
    }
    return totalsOf(orders, sales);
  };
  const byDay = Array.from({ length: period.days }, (_, index) => {
    const date = shift(period.from, index);
    const row = perDay.get(date);
    return { date, orders: row?.orders ?? 0, salesPaise: Number(row?.sales ?? 0) };
  });
  const document = (kind: string) => documents.rows.find((row) => row.kind === kind);
  const invoicedPaise = Number(document("invoice")?.taxable ?? 0);
  const creditedPaise = Number(document("credit_note")?.taxable ?? 0);
  const refundWay = (way: string) => {
    const row = refunds.rows.find((each) => each.way === way);
    return { orders: row?.orders ?? 0, amountPaise: Number(row?.amount ?? 0) };
  };
  const people = customers.rows[0] ?? { customers: 0, returning: 0, repeaters: 0 };

  return {
    period,
    previous,
    totals: sum(period.from, period.to),
    previousTotals: sum(previous.from, previous.to),
    taxable: { invoicedPaise, creditedPaise, netPaise: invoicedPaise - creditedPaise },
    byDay,
    items: items.rows.map((row) => ({
      itemId: row.item_id,
      kind: row.kind,
      name: row.name,
      units: row.units,
      revenuePaise: Number(row.revenue),
    })),
    states: states.rows.map((row) => ({
      state: row.state,
      orders: row.orders,
      salesPaise: Number(row.sales),
    })),
    customers: {
      customers: people.customers,
      newCustomers: people.customers - people.returning,
      returning: people.returning,
      repeatRatePercent: people.customers ? Math.round((people.repeaters * 100) / people.customers) : 0,
    },
    payments: payments.rows.map((row) => ({
      method: row.method,
      orders: row.orders,
      salesPaise: Number(row.sales),
    })),
    codes: codes.rows.map((row) => ({
      code: row.code,
      orders: row.orders,
      discountPaise: Number(row.discount),
      salesPaise: Number(row.sales),
    })),
    refunds: {
      ...refundWay("all"),
      online: refundWay("online"),
      byHand: refundWay("byHand"),
      latePayments: refundWay("latePayments"),
    },
    creditNotes: {
      count: document("credit_note")?.count ?? 0,
      totalPaise: Number(document("credit_note")?.total ?? 0),
    },
  };
}

/**
 * Who reads the sales' tables and the figures beside them (after the order, the funnel): the owner, and staff
 * when she shares the sales; anyone else is answered 403.
 */
export async function requireSalesReader(db: Db, user: SessionUser): Promise<void> {
  if (user.role === "owner" || (await staffSeeSales(db))) return;
  throw httpError(403, "forbidden", "The owner has not shared the sales figures with staff.");
}

/** Whether staff see the sales figures; the owner always does. */
export async function staffSeeSales(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ staffSeeSales: analyticsSettings.staffSeeSales })
    .from(analyticsSettings)
    .where(eq(analyticsSettings.id, 1));
  return row?.staffSeeSales ?? false;
}

/** The owner shares the sales figures with staff, or stops; audited in the same transaction. */
export async function saveStaffSeeSales(db: Db, allowed: boolean, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ staffSeeSales: analyticsSettings.staffSeeSales })
      .from(analyticsSettings)
      .where(eq(analyticsSettings.id, 1))
      .for("update");
    await tx
      .insert(analyticsSettings)
      .values({ id: 1, staffSeeSales: allowed, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: analyticsSettings.id,
        set: { staffSeeSales: allowed, updatedBy: actor.id, updatedAt: new Date() },
      });
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "sales-figures",
      action: "update",
      before: { staffSeeSales: before?.staffSeeSales ?? false },
      after: { staffSeeSales: allowed },
    });
    return allowed;
  });
}
