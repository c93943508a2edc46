import { format } from "date-fns/format";
import { subDays } from "date-fns/subDays";
import { eq, sql } from "drizzle-orm";
import type { SessionUser } from "../../common/account.ts";
import type {
  SalesFigures,
  SalesPeriod,
  SalesQuery,
  SalesTable,
  SalesTotals,
} from "../../common/analytics.ts";
import { indianDate } from "../../common/india-time.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { foldDeltaRows } from "../db/fold-deltas.ts";
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
 * The statements the figures are made of: orders and sales per day, the per-day summary's sums (states,
 * payments, codes, items, tax documents), the customers, the refunds. A CSV file computes only the ones its
 * table shows (CSV_PARTS); the figures left out stay empty.
 */
const SALES_PARTS = ["days", "summed", "customers", "refunds"] as const;
export type SalesPart = (typeof SALES_PARTS)[number];

/** What each table's CSV file reads: its own figures, not the whole page's. */
export const CSV_PARTS: Record<SalesTable, readonly SalesPart[]> = {
  days: ["days"],
  items: ["summed"],
  states: ["summed"],
  payments: ["summed"],
  codes: ["summed"],
  refunds: ["refunds", "summed"],
};

/**
 * The per-day summary's dimensions each CSV file's table shows (the refunds' table shows the credit notes): a
 * file reads only those rows.
 */
export const CSV_DIMENSIONS: Record<SalesTable, readonly string[]> = {
  days: [],
  items: ["product", "combo"],
  states: ["state"],
  payments: ["payment"],
  codes: ["code"],
  refunds: ["credit_note"],
};

type RefundRow = {
  way: "online" | "byHand" | "latePayments" | "all";
  orders: number;
  amount: string;
  /** Rows beyond one per day and previous day: what a fold would remove. */
  extra: number;
};

/** A statement left out: no rows. */
const nothing = async <Row>() => ({ rows: [] as Row[] });

/**
 * "Sales at a glance" for a period (docs/decisions/080): every sum is PostgreSQL's. A sale is an order placed in
 * the period (India's days) whose status is a sale (SALE_STATUSES: not waiting for payment, cancelled, returned
 * or refunded), valued at its total as the shopper paid it, GST and delivery included, as the dashboard's
 * revenue always was; the figure net of GST is the tax documents' taxable value, invoices less credit notes
 * issued in the period, exactly as the GST returns count it. Orders and sales per day come from the
 * trigger-kept day deltas (migration 0009), the breakdowns from the per-day summary (sales_day_deltas), the
 * customers from each sale's previous sale by the same buyer (buyer_sales): each costs the period's days or
 * sales, never every buyer's history. `parts` leaves out the statements a CSV file does not show, `dimensions`
 * the summary's rows it does not show.
 */
export async function salesFigures(
  db: Db,
  query: SalesQuery,
  now = new Date(),
  parts: readonly SalesPart[] = SALES_PARTS,
  dimensions?: readonly string[],
): Promise<SalesFigures> {
  const { period, previous } = periodOf(query, now);
  const need = (part: SalesPart) => parts.includes(part);
  const span = monthsWithin(period.from, period.to);
  const only = dimensions?.length
    ? sql`and dimension in (${sql.join(
        dimensions.map((dimension) => sql`${dimension}`),
        sql`, `,
      )})`
    : sql``;

  const [days, summed, customers, refunds] = await Promise.all([
    need("days")
      ? db.execute<{ day: string; orders: number; sales: string }>(sql`
      select day::text as day, sum(orders)::int as orders, sum(revenue_paise)::bigint as sales
      from order_day_deltas where day between ${previous.from}::date and ${period.to}::date
      group by day`)
      : nothing<{ day: string; orders: number; sales: string }>(),
    // Sales by state, payment, code and item, and the tax documents, from the per-day deltas (migration
    // sales_day_deltas) for the days at the period's edges and their sums per month (sales_month_deltas) for
    // the whole months within it: the rows of the period's days and months, whatever its orders. A key whose rows sum to nothing
    // (an order cancelled, a line edited away) is no longer there, as in the orders themselves; an item's name
    // is the greatest among its lines still counted, as max(name) over the lines would give.
    need("summed")
      ? db.execute<SummedRow>(sql`
      with daily as (
        select dimension, key, name, sum(count) as count, sum(units) as units, sum(amount_paise) as amount,
          sum(other_paise) as other, count(*) - 1 as extra, 0 as month_extra
        from sales_day_deltas
        where (day between ${span.headFrom}::date and ${span.headTo}::date
          or day between ${span.tailFrom}::date and ${span.tailTo}::date) ${only}
        group by day, dimension, key, name
        union all
        select dimension, key, name, sum(count), sum(units), sum(amount_paise), sum(other_paise), 0,
          count(*) - 1
        from sales_month_deltas
        where month between ${span.monthFrom}::date and ${span.monthTo}::date ${only}
        group by month, dimension, key, name
      ), keyed as (
        select dimension, key, name, sum(count)::int as count, sum(units)::int as units,
          sum(amount)::bigint as amount, sum(other)::bigint as other, sum(extra)::int as extra,
          sum(month_extra)::int as month_extra
        from daily group by dimension, key, name
      )
      select dimension, key, max(name) filter (where count <> 0) as name, sum(count)::int as count,
        sum(units)::int as units, sum(amount)::bigint as amount, sum(other)::bigint as other,
        sum(extra)::int as extra, sum(month_extra)::int as month_extra
      from keyed group by dimension, key`)
      : nothing<SummedRow>(),
    need("customers") ? customersOf(db, period.from, period.to, indianDate(now)) : nothing<CustomersRow>(),
    // Refunds as the ledger records them (decision 088): what went back, when it went back, whatever the
    // order's status now says; an edit's partial refund counts too. A refund's order is counted once per way:
    // from the per-day summary (refund_day_deltas, docs/decisions/094), its one refund in the period whose
    // previous refund of that way is before the period or none.
    need("refunds")
      ? db.execute<RefundRow>(sql`
      select way, (sum(refunds) filter (where previous_day is null or previous_day < ${period.from}::date)
          )::int as orders,
        sum(amount_paise)::bigint as amount,
        (count(*) - count(distinct (day, coalesce(previous_day, '-infinity'::date))))::int as extra
      from refund_day_deltas
      where day between ${period.from}::date and ${period.to}::date
      group by way`)
      : nothing<RefundRow>(),
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
  const groups = summed.rows.filter((row) => row.count !== 0);
  if (summed.rows.reduce((total, row) => total + row.extra, 0) > DELTA_ROWS_TO_FOLD) {
    await foldSalesDeltas(db, "day", period.from, period.to);
  }
  if (summed.rows.reduce((total, row) => total + row.month_extra, 0) > DELTA_ROWS_TO_FOLD) {
    await foldSalesDeltas(db, "month", span.monthFrom, span.monthTo);
  }
  const of = (dimension: string) => groups.filter((row) => row.dimension === dimension);
  const bySales = (a: SummedRow, b: SummedRow) =>
    Number(b.amount) - Number(a.amount) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const document = (kind: string) => of(kind)[0];
  const invoicedPaise = Number(document("invoice")?.amount ?? 0);
  const creditedPaise = Number(document("credit_note")?.amount ?? 0);
  const refundWay = (way: string) => {
    const row = refunds.rows.find((each) => each.way === way);
    return { orders: row?.orders ?? 0, amountPaise: Number(row?.amount ?? 0) };
  };
  if (refunds.rows.reduce((total, row) => total + row.extra, 0) > DELTA_ROWS_TO_FOLD) {
    await foldRefundDeltas(db, period.from, period.to);
  }
  const people = customers.rows[0] ?? { customers: 0, returning: 0, repeaters: 0, extra: 0 };
  if (people.extra > DELTA_ROWS_TO_FOLD) await foldBuyerSaleDeltas(db);

  return {
    period,
    previous,
    totals: sum(period.from, period.to),
    previousTotals: sum(previous.from, previous.to),
    taxable: { invoicedPaise, creditedPaise, netPaise: invoicedPaise - creditedPaise },
    byDay,
    items: [...of("product"), ...of("combo")]
      .sort((a, b) => Number(b.amount) - Number(a.amount) || b.units - a.units || compareText(a.key, b.key))
      .slice(0, ITEM_LIMIT)
      .map((row) => ({
        itemId: row.key,
        kind: row.dimension as "product" | "combo",
        name: row.name ?? "",
        units: row.units,
        revenuePaise: Number(row.amount),
      })),
    states: of("state")
      .sort(bySales)
      .map((row) => ({ state: row.key, orders: row.count, salesPaise: Number(row.amount) })),
    customers: {
      customers: people.customers,
      newCustomers: people.customers - people.returning,
      returning: people.returning,
      repeatRatePercent: people.customers ? Math.round((people.repeaters * 100) / people.customers) : 0,
    },
    payments: of("payment")
      .sort((a, b) => compareText(a.key, b.key))
      .map((row) => ({
        method: row.key as "cod" | "razorpay",
        orders: row.count,
        salesPaise: Number(row.amount),
      })),
    codes: of("code")
      .sort((a, b) => Number(b.other) - Number(a.other) || compareText(a.key, b.key))
      .slice(0, CODE_LIMIT)
      .map((row) => ({
        code: row.key,
        orders: row.count,
        discountPaise: Number(row.other),
        salesPaise: Number(row.amount),
      })),
    refunds: {
      ...refundWay("all"),
      online: refundWay("online"),
      byHand: refundWay("byHand"),
      latePayments: refundWay("latePayments"),
    },
    creditNotes: {
      count: document("credit_note")?.count ?? 0,
      totalPaise: Number(document("credit_note")?.other ?? 0),
    },
  };
}

type CustomersRow = { customers: number; returning: number; repeaters: number; extra: number };

/**
 * A period's customers, returning customers and repeaters. A customer is the account, else the guest's e-mail,
 * else (an account since deleted) the mobile. Returning: bought before the period; repeat: bought more than
 * once, before or within it. From buyer_sales (each sale with its buyer's sale before it, docs/decisions/097):
 * a buyer of the period has exactly one sale in it whose previous sale is before the period or none (none: a
 * new customer); a new customer who bought again within the period has a second sale whose previous one is in
 * the period. Those counts need not read the period's sales (docs/decisions/097): the sales whose previous
 * sale is before the period and who are on or after its first day are, summed per day, the sales following a
 * day before it less the later sales of a day before it (buyer_sale_day_deltas); less those after its last
 * day, read from buyer_sales, none for a period ending today. A period further back than it is long reads its
 * own sales instead, whichever is fewer days.
 */
function customersOf(db: Db, from: string, to: string, today: string) {
  if (daysBetween(to, today) - 1 > daysBetween(from, to)) {
    return db.execute<CustomersRow>(sql`
      select count(*) filter (where previous_day is null or previous_day < ${from}::date)::int as customers,
        count(*) filter (where previous_day < ${from}::date)::int as returning,
        count(*) filter (where previous_day < ${from}::date
          or (rank = 2 and previous_day >= ${from}::date))::int as repeaters,
        0 as extra
      from buyer_sales where day between ${from}::date and ${to}::date`);
  }
  return db.execute<CustomersRow>(sql`
    with days as (
      select coalesce(sum(firsts) filter (where day >= ${from}::date), 0) as firsts,
        coalesce(sum(seconds) filter (where day >= ${from}::date), 0) as seconds,
        coalesce(sum(nexts - later) filter (where day < ${from}::date), 0) as open,
        coalesce(sum(second_nexts - seconds) filter (where day < ${from}::date), 0) as open_seconds,
        count(*) - count(distinct day) as extra
      from buyer_sale_day_deltas where day <= ${to}::date
    ), beyond as (
      select count(*) filter (where previous_day < ${from}::date) as open,
        count(*) filter (where rank = 2 and previous_day < ${from}::date) as open_seconds
      from buyer_sales where day > ${to}::date
    )
    select (days.firsts + days.open - beyond.open)::int as customers,
      (days.open - beyond.open)::int as returning,
      (days.open - beyond.open + days.seconds - (days.open_seconds - beyond.open_seconds))::int as repeaters,
      days.extra::int as extra
    from days, beyond`);
}

/** Replaces buyer_sale_day_deltas' rows by their sums, one row per day. */
export async function foldBuyerSaleDeltas(db: Db) {
  await foldDeltaRows(db, {
    table: "buyer_sale_day_deltas",
    keys: ["day"],
    sums: ["firsts", "later", "seconds", "nexts", "second_nexts"],
  });
}

type SummedRow = {
  dimension: string;
  key: string;
  name: string | null;
  count: number;
  units: number;
  amount: string;
  other: string;
  /** Rows beyond one per day and key: what a fold would remove. */
  extra: number;
  /** Rows beyond one per month and key. */
  month_extra: number;
};

/** The first day of the month `months` after a day's. */
const monthStart = (day: string, months: number) => {
  const [year, month] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + months, 1)).toISOString().slice(0, 10);
};

/**
 * A period cut into the whole months within it (monthFrom..monthTo, their first days) and the days before and
 * after them (head and tail); a period within one month, or without a whole one, is all head.
 */
export function monthsWithin(from: string, to: string) {
  const first = from.endsWith("-01") ? from : monthStart(from, 1);
  const lastMonth = shift(to, 1).endsWith("-01") ? monthStart(to, 0) : monthStart(to, -1);
  if (first > lastMonth) {
    return {
      headFrom: from,
      headTo: to,
      tailFrom: shift(to, 1),
      tailTo: to,
      monthFrom: first,
      monthTo: lastMonth,
    };
  }
  return {
    headFrom: from,
    headTo: shift(first, -1),
    tailFrom: monthStart(lastMonth, 1),
    tailTo: to,
    monthFrom: first,
    monthTo: lastMonth,
  };
}

/** Text compared as PostgreSQL's "C" collation would: by code point, as the keys are plain names. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Delta rows beyond one per day and key at which reading a period folds its days. */
const DELTA_ROWS_TO_FOLD = 1_000;

/**
 * Replaces a period's rows of sales_day_deltas, or whole months' rows of sales_month_deltas, by their sums: one
 * row per day (or month) and key.
 */
const foldSalesDeltas = (db: Db, unit: "day" | "month", from: string, to: string) =>
  foldDeltaRows(db, {
    table: `sales_${unit}_deltas`,
    keys: [unit, "dimension", "key", "name"],
    sums: ["count", "units", "amount_paise", "other_paise"],
    within: { column: unit, from, to },
  });

/** Replaces a period's rows of refund_day_deltas by their sums, one row per day, way and previous day. */
const foldRefundDeltas = (db: Db, from: string, to: string) =>
  foldDeltaRows(db, {
    table: "refund_day_deltas",
    keys: ["day", "way", "previous_day"],
    sums: ["refunds", "amount_paise"],
    within: { column: "day", from, to },
  });

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
