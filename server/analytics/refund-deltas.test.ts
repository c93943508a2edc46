import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { indianDate } from "../../common/india-time.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { insertOrderRow, onlinePaymentEntry, onlineRefundEntry } from "../../tests/orders.ts";
import { moneyLedger } from "../db/schema.ts";
import { salesFigures } from "./sales.ts";

/**
 * The refunds per day (refund_day_deltas, docs/decisions/094) are exact: after refunds online, by hand and of
 * late payments, an order refunded on several days and twice on one day, and refunds moved to another day, made
 * applied, changed in amount and deleted in the table, every period between any two of the days around them
 * counts each order once per way and sums the amounts exactly as the ledger's own query does; and the same
 * after the period's rows are folded.
 */
const shop = setUpTestApp();
const DAY_MS = 86_400_000;
/** Noon in India `days` days ago. */
const daysAgo = (days: number) =>
  new Date(`${indianDate(new Date(Date.now() - days * DAY_MS))}T12:00:00+05:30`);
let sequence = 0;

/** An online order refunded whole, placed 500 days ago, as the shop stores one. */
async function refundedOrder(totalPaise: number) {
  return insertOrderRow(shop.db, {
    number: `PN-REFUND-${String(++sequence).padStart(4, "0")}`,
    status: "refunded",
    paymentMethod: "razorpay",
    totalPaise,
    shipName: "Refunded",
    createdAt: daysAgo(500),
    updatedAt: daysAgo(500),
  });
}

const paid = (orderId: string, payment: string, amountPaise: number, days: number, applied = true) =>
  onlinePaymentEntry(orderId, payment, amountPaise, daysAgo(days), applied);
const refunded = (orderId: string, payment: string, amountPaise: number, days: number, applied = true) =>
  onlineRefundEntry(orderId, payment, amountPaise, daysAgo(days), applied);
const byHand = (orderId: string, amountPaise: number, days: number) => ({
  orderId,
  kind: "cash_refund" as const,
  amountPaise,
  reference: `UPI ${++sequence}`,
  createdAt: daysAgo(days),
});

/**
 * For every period between two of the days around the refunds (each refund's day, the day before and after),
 * the orders and amount per way as the ledger's query counts them, and as the summary does; only ways with a
 * refund in the period.
 */
async function everyPeriod() {
  const { rows } = await shop.db.execute<{ ledger: string; summary: string; periods: number }>(sql`
    with refunds as (
      select order_id, amount_paise, order_indian_day(created_at) as day,
        case when kind = 'cash_refund' then 'byHand' when applied then 'online' else 'latePayments' end as way
      from money_ledger where kind in ('online_refund', 'cash_refund')
    ), ways as (
      select * from refunds union all select order_id, amount_paise, day, 'all' from refunds
       where way <> 'latePayments'
    ), days as (
      select distinct day + shift as day from refunds, (values (-1), (0), (1)) as s(shift)
    ), periods as (
      select f.day as first, t.day as last from days f join days t on f.day <= t.day
    ), ledger as (
      select p.first, p.last, w.way, count(distinct w.order_id)::int as orders, sum(w.amount_paise)::bigint as amount
      from periods p join ways w on w.day between p.first and p.last group by 1, 2, 3
    ), summary as (
      select p.first, p.last, d.way,
        coalesce(sum(d.refunds) filter (where d.previous_day is null or d.previous_day < p.first), 0)::int
          as orders,
        sum(d.amount_paise)::bigint as amount
      from periods p join refund_day_deltas d on d.day between p.first and p.last group by 1, 2, 3
      having sum(d.refunds) <> 0 or sum(d.amount_paise) <> 0
    )
    select (select coalesce(json_agg(l order by l.first, l.last, l.way), '[]')::text from ledger l) as ledger,
      (select coalesce(json_agg(s order by s.first, s.last, s.way), '[]')::text from summary s) as summary,
      (select count(*)::int from periods) as periods`);
  const [row] = rows;
  if (!row) throw new Error("no periods");
  return { ledger: JSON.parse(row.ledger), summary: JSON.parse(row.summary), periods: row.periods };
}

/** The refunds of a period as the ledger's query counted them before the summary (each order once per way). */
async function ledgerRefunds(from: string, to: string) {
  const { rows } = await shop.db.execute<{ way: string; orders: number; amount: string }>(sql`
    with refunds as (
      select case when kind = 'cash_refund' then 'byHand' when applied then 'online' else 'latePayments' end
        as way, order_id, amount_paise
      from money_ledger
      where kind in ('online_refund', 'cash_refund') and order_indian_day(created_at) between ${from} and ${to}
    )
    select way, count(distinct order_id)::int as orders, sum(amount_paise)::bigint as amount
    from refunds group by way
    union all
    select 'all', count(distinct order_id)::int, coalesce(sum(amount_paise), 0)::bigint
    from refunds where way <> 'latePayments'`);
  const way = (name: string) => {
    const row = rows.find((each) => each.way === name);
    return { orders: row?.orders ?? 0, amountPaise: Number(row?.amount ?? 0) };
  };
  return {
    ...way("all"),
    online: way("online"),
    byHand: way("byHand"),
    latePayments: way("latePayments"),
  };
}

/** Every period's figures equal, and the dashboard's own periods read through salesFigures. */
async function expectExact() {
  const check = await everyPeriod();
  expect(check.periods).toBeGreaterThan(30);
  expect(check.summary).toEqual(check.ledger);
  const today = indianDate(new Date());
  const ranges = [
    { period: "today" as const },
    { period: "7d" as const },
    { period: "30d" as const },
    { period: "range" as const, from: indianDate(daysAgo(365)), to: today },
    { period: "range" as const, from: indianDate(daysAgo(25)), to: indianDate(daysAgo(4)) },
  ];
  for (const query of ranges) {
    const figures = await salesFigures(shop.db, query, new Date(), ["refunds"]);
    expect(figures.refunds, JSON.stringify(query)).toEqual(
      await ledgerRefunds(figures.period.from, figures.period.to),
    );
  }
}

let a: string;
let b: string;
let c: string;
let d: string;

beforeAll(async () => {
  a = await refundedOrder(100_000);
  b = await refundedOrder(50_000);
  c = await refundedOrder(30_000);
  d = await refundedOrder(20_000);
});

describe("the refunds per day", () => {
  it("count each order once per way in every period, and sum the amounts", async () => {
    // One statement per order's money, so the ledger's check (at commit) sees each payment with its refunds.
    await shop.db.insert(moneyLedger).values([
      // A: refunded online on three days, twice on one of them, and by hand besides.
      paid(a, "pay_A", 100_000, 50),
      refunded(a, "pay_A", 30_000, 20),
      refunded(a, "pay_A", 30_000, 5),
      refunded(a, "pay_A", 40_000, 5),
      byHand(a, 5_000, 3),
      // B: refunded whole yesterday, and a late payment sent back two days ago.
      paid(b, "pay_B", 50_000, 40),
      refunded(b, "pay_B", 50_000, 1),
      paid(b, "pay_B_late", 7_000, 2, false),
      refunded(b, "pay_B_late", 7_000, 2, false),
    ]);
    await expectExact();
    // C: by hand today and ten days ago, in two statements; D: a year and more ago, and two days ago.
    await shop.db.insert(moneyLedger).values(byHand(c, 10_000, 10));
    await shop.db.insert(moneyLedger).values(byHand(c, 20_000, 0));
    await shop.db
      .insert(moneyLedger)
      .values([
        paid(d, "pay_D", 20_000, 420),
        refunded(d, "pay_D", 15_000, 400),
        refunded(d, "pay_D", 5_000, 2),
      ]);
    await expectExact();
  });

  it("stay exact after refunds are moved, made applied, changed and deleted in the table", async () => {
    // A's refund of 20 days ago moves to 6 days ago, next to its two of 5 days ago.
    await shop.db.execute(sql`
      update money_ledger set created_at = created_at + interval '14 days'
       where order_id = ${a} and kind = 'online_refund' and created_at < now() - interval '15 days'`);
    await expectExact();
    // B's late payment and its refund turn out to have been applied to it after all.
    await shop.db.execute(sql`
      update money_ledger set applied = true where order_id = ${b} and razorpay_payment_id = 'pay_B_late'`);
    await expectExact();
    // C's refund of ten days ago was larger, and its refund of today is a mistake.
    await shop.db.execute(sql`
      update money_ledger set amount_paise = 12_000 where order_id = ${c} and amount_paise = 10_000`);
    await shop.db.execute(sql`
      delete from money_ledger where order_id = ${c} and created_at > now() - interval '1 day'`);
    await expectExact();
    // A's refund by hand moves to C's order, on another day.
    await shop.db.execute(sql`
      update money_ledger set order_id = ${c}, created_at = created_at - interval '8 days'
       where order_id = ${a} and kind = 'cash_refund'`);
    await expectExact();
  });

  it("stay exact once a period's rows are folded", async () => {
    // 600 changes of one refund's amount, each its own statement: two rows each (its way and "all").
    await shop.db.execute(sql`
      do $$ begin
        for i in 1..600 loop
          update money_ledger set amount_paise = amount_paise + 1 where kind = 'cash_refund' and order_id = ${sql.raw(`'${c}'`)}
            and created_at < now() - interval '9 days' and created_at > now() - interval '12 days';
        end loop;
      end $$`);
    const rowsBefore = await shop.db.execute<{ n: number }>(
      sql`select count(*)::int as n from refund_day_deltas`,
    );
    expect(rowsBefore.rows[0]?.n).toBeGreaterThan(1_200);
    await expectExact();
    const year = { period: "range" as const, from: indianDate(daysAgo(365)), to: indianDate(new Date()) };
    await salesFigures(shop.db, year, new Date(), ["refunds"]);
    const rowsAfter = await shop.db.execute<{ n: number }>(
      sql`select count(*)::int as n from refund_day_deltas`,
    );
    expect(rowsAfter.rows[0]?.n).toBeLessThan(60);
    await expectExact();
  });
});
