import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { SalesQuery } from "../../common/analytics.ts";
import { startOfIndianDay } from "../../common/india-time.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { type Customer, placeCodOrder, signUpWithAddress } from "../../tests/orders.ts";
import { orders, users } from "../db/schema.ts";
import { foldBuyerSaleDeltas, periodOf, salesFigures } from "./sales.ts";

/**
 * New against returning customers read from buyer_sales (docs/decisions/097) and its per-day counts
 * (buyer_sale_day_deltas) equal the same figures read from every order, as the dashboard
 * read them before: after orders placed, cancelled, returned and moved in time through the shop's routes, a
 * buyer whose first order was cancelled, and an account deleted (its orders then count by their mobile), for
 * today, 7 days, 30 days and ranges ending today, a few days back (read from the day counts) and long ago (read
 * from the period's sales); the day counts equal buyer_sales counted per day, before and after a fold.
 */
const shop = setUpTestApp();
let staff: TestAccount;
const DAY = 86_400_000;

const move = async (number: string, status: string, extra: Record<string, string> = {}) => {
  const answer = await callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, {
    as: staff,
    body: { status, ...extra },
  });
  expect(answer.status, `${number} → ${status}: ${JSON.stringify(answer.body)}`).toBe(200);
};

const buyer = (name: string) => signUpWithAddress(shop.app, `${name}@example.in`);

/** An order of `who`, placed through the shop, then standing `daysAgo` days back. */
async function placeFor(who: Customer, daysAgo = 0) {
  const { number } = await placeCodOrder(shop, who, [{ itemId: "coconut-oil" }]);
  if (daysAgo) {
    await shop.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(orders.number, number));
  }
  return number;
}

/** The figures as the dashboard read them from every order before buyer_sales. */
async function readFromOrders(query: SalesQuery) {
  const { period } = periodOf(query, new Date());
  const start = startOfIndianDay(period.from).toISOString();
  const end = new Date(startOfIndianDay(period.to).getTime() + DAY).toISOString();
  const { rows } = await shop.db.execute<{ customers: number; returning: number; repeaters: number }>(sql`
    with buyers as (
      select o.user_id, o.guest_email, o.ship_phone, count(*) as orders
      from orders o where order_is_sale(o.status) and o.created_at >= ${start}::timestamptz
        and o.created_at < ${end}::timestamptz
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
    from people`);
  const row = rows[0] ?? { customers: 0, returning: 0, repeaters: 0 };
  return {
    customers: row.customers,
    newCustomers: row.customers - row.returning,
    returning: row.returning,
    repeatRatePercent: row.customers ? Math.round((row.repeaters * 100) / row.customers) : 0,
  };
}

/** buyer_sales as kept, and as worked out from the orders now. */
async function keptAndWorkedOut() {
  const kept = await shop.db.execute(sql`
    select order_id, buyer, day::text as day, previous_day::text as previous_day, rank
    from buyer_sales order by order_id`);
  const workedOut = await shop.db.execute(sql`
    select id as order_id, buyer, day::text as day, (lag(day) over w)::text as previous_day,
      (row_number() over w)::int as rank
    from (select o.id, coalesce(o.user_id, o.guest_email, o.ship_phone) as buyer,
      order_indian_day(o.created_at) as day, o.created_at from orders o where order_is_sale(o.status)) as sales
    window w as (partition by buyer order by created_at, id)
    order by order_id`);
  return { kept: kept.rows, workedOut: workedOut.rows };
}

/** buyer_sale_day_deltas summed per day, and the same counts worked out from buyer_sales. */
async function dayCountsKeptAndWorkedOut() {
  const kept = await shop.db.execute(sql`
    select day::text as day, sum(firsts)::int as firsts, sum(later)::int as later, sum(seconds)::int as seconds,
      sum(nexts)::int as nexts, sum(second_nexts)::int as second_nexts
    from buyer_sale_day_deltas group by day
    having sum(firsts) <> 0 or sum(later) <> 0 or sum(seconds) <> 0 or sum(nexts) <> 0 or sum(second_nexts) <> 0
    order by day`);
  const workedOut = await shop.db.execute(sql`
    select day::text as day, sum(firsts)::int as firsts, sum(later)::int as later, sum(seconds)::int as seconds,
      sum(nexts)::int as nexts, sum(second_nexts)::int as second_nexts
    from (
      select day, (previous_day is null)::int as firsts, (previous_day is not null)::int as later,
        (rank = 2)::int as seconds, 0 as nexts, 0 as second_nexts
      from buyer_sales
      union all
      select previous_day, 0, 0, 0, 1, (rank = 2)::int from buyer_sales where previous_day is not null
    ) as counted
    group by day order by day`);
  return { kept: kept.rows, workedOut: workedOut.rows };
}

const PERIODS: SalesQuery[] = [{ period: "today" }, { period: "7d" }, { period: "30d" }];

async function expectSameFigures() {
  const table = await keptAndWorkedOut();
  expect(table.kept).toEqual(table.workedOut);
  const days = await dayCountsKeptAndWorkedOut();
  expect(days.kept).toEqual(days.workedOut);
  const { period } = periodOf({ period: "today" }, new Date());
  const ranges: SalesQuery[] = [
    ...PERIODS,
    {
      period: "range",
      from: periodOf({ period: "30d" }, new Date(Date.now() - 20 * DAY)).period.from,
      to: period.to,
    },
    {
      period: "range",
      from: periodOf({ period: "30d" }, new Date(Date.now() - 20 * DAY)).period.from,
      to: periodOf({ period: "today" }, new Date(Date.now() - 5 * DAY)).period.to,
    },
    {
      period: "range",
      from: periodOf({ period: "today" }, new Date(Date.now() - 40 * DAY)).period.from,
      to: periodOf({ period: "today" }, new Date(Date.now() - 15 * DAY)).period.to,
    },
    {
      period: "range",
      from: periodOf({ period: "today" }, new Date(Date.now() - 42 * DAY)).period.from,
      to: periodOf({ period: "today" }, new Date(Date.now() - 36 * DAY)).period.to,
    },
  ];
  const seen = [];
  for (const query of ranges) {
    const figures = await salesFigures(shop.db, query);
    expect(figures.customers, JSON.stringify(query)).toEqual(await readFromOrders(query));
    seen.push(figures.customers);
  }
  return seen;
}

beforeAll(async () => {
  staff = await signUpViaApp(shop.app, "buyers-desk@example.in");
  await makeAdmin(shop, staff, "staff");
}, 60_000);

describe("new against returning customers, from each sale's previous sale", () => {
  it("equals the figures read from every order through placing, cancelling, returning and deleting", async () => {
    const returning = await buyer("came-back");
    await placeFor(returning, 40);
    await placeFor(returning, 10);
    await placeFor(returning);
    // Her first order was cancelled: she is new when she orders again.
    const firstCancelled = await buyer("first-cancelled");
    const cancelled = await placeFor(firstCancelled, 40);
    await move(cancelled, "cancelled");
    await placeFor(firstCancelled);
    const twiceToday = await buyer("twice-today");
    await placeFor(twiceToday);
    await placeFor(twiceToday);
    const longAgo = await buyer("long-ago");
    await placeFor(longAgo, 45);
    const lateReturn = await buyer("late-return");
    const firstReturned = await placeFor(lateReturn, 20);
    await placeFor(lateReturn, 3);
    const deleted = await buyer("deleted-account");
    await placeFor(deleted, 35);
    await placeFor(deleted, 2);

    const before = await expectSameFigures();
    expect(before[0]).toMatchObject({ customers: 3, returning: 1 });

    // The first order of one buyer is returned: her next order is now her first sale.
    await move(firstReturned, "confirmed");
    await move(firstReturned, "packed");
    await move(firstReturned, "shipped", { courier: "Delhivery", trackingNumber: "DLV-8880001" });
    await move(firstReturned, "delivered");
    await move(firstReturned, "return_requested");
    await move(firstReturned, "returned");
    await expectSameFigures();

    // A cancelled order of today, and an order moved back in time.
    const [, second] = [await placeFor(longAgo), await placeFor(longAgo)];
    await move(second as string, "cancelled");
    await shop.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 8 * DAY) })
      .where(eq(orders.number, cancelled));
    await expectSameFigures();

    // An account deleted: its orders stay, counted by their mobile with any other order of that mobile.
    await shop.db.delete(users).where(eq(users.id, deleted.userId));
    const after = await expectSameFigures();
    expect(after.some((figures) => figures.returning > 0)).toBe(true);

    // Folded into one row per day, the counts and the figures are the same.
    await foldBuyerSaleDeltas(shop.db);
    const folded = await shop.db.execute<{ rows: number; days: number }>(sql`
      select count(*)::int as rows, count(distinct day)::int as days from buyer_sale_day_deltas`);
    expect(folded.rows[0]?.rows).toBe(folded.rows[0]?.days);
    expect(await expectSameFigures()).toEqual(after);
  }, 240_000);

  it("works a buyer out again when an order inserted is not their latest sale, or one statement inserts two", async () => {
    const backDated = await buyer("back-dated");
    const source = await placeFor(backDated, 3);
    /** Copies of the source order inserted by one statement, each standing `daysAgo` days back. */
    const insertCopies = (copies: [number: string, daysAgo: number][]) =>
      shop.db.execute(sql`
        insert into orders
        select (jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object(
          'id', gen_random_uuid()::text, 'number', copy.number,
          'created_at', now() - make_interval(days => copy.days_ago)))).*
        from orders o cross join (
          select * from jsonb_to_recordset(${JSON.stringify(copies.map(([number, daysAgo]) => ({ number, days_ago: daysAgo })))}::jsonb)
            as copy(number text, days_ago int)
        ) as copy
        where o.number = ${source}`);
    const expectKeptExactly = async (sales: number) => {
      const table = await keptAndWorkedOut();
      expect(table.kept).toEqual(table.workedOut);
      expect(table.kept.filter((row) => row.buyer === backDated.userId)).toHaveLength(sales);
    };
    // Placed before her latest sale (an import, a back-dated row): her later sales move up a rank.
    await insertCopies([["PN-2026-800001", 10]]);
    await expectKeptExactly(2);
    // After her latest: appended.
    await insertCopies([["PN-2026-800002", 1]]);
    await expectKeptExactly(3);
    // Two of hers in one statement, one of them her first sale.
    await insertCopies([
      ["PN-2026-800003", 0],
      ["PN-2026-800004", 20],
    ]);
    await expectKeptExactly(5);
    await expectSameFigures();
  }, 120_000);

  it("stays exact when one buyer's orders are written at once by many transactions", async () => {
    const busy = await buyer("many-at-once");
    const source = await placeFor(busy, 12);
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        shop.db.transaction(async (tx) => {
          await tx.execute(sql`
            insert into orders
            select (jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object(
              'id', gen_random_uuid()::text, 'number', ${`PN-2026-9${String(index).padStart(5, "0")}`}::text,
              'created_at', now() - make_interval(days => ${index * 2}::int)))).*
            from orders o where o.number = ${source}`);
          await tx.execute(sql`select pg_sleep(0.3)`);
        }),
      ),
    );
    const table = await keptAndWorkedOut();
    expect(table.kept).toEqual(table.workedOut);
    expect(table.kept.filter((row) => row.buyer === busy.userId)).toHaveLength(7);
    await expectSameFigures();
  }, 120_000);

  it("stays exact when one buyer's orders, each their latest, are placed at once by many transactions", async () => {
    const eager = await buyer("eager-at-once");
    const source = await placeFor(eager);
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        shop.db.transaction(async (tx) => {
          await tx.execute(sql`
            insert into orders
            select (jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object(
              'id', gen_random_uuid()::text, 'number', ${`PN-2026-7${String(index).padStart(5, "0")}`}::text,
              'created_at', clock_timestamp()))).*
            from orders o where o.number = ${source}`);
          await tx.execute(sql`select pg_sleep(0.2)`);
        }),
      ),
    );
    const table = await keptAndWorkedOut();
    expect(table.kept).toEqual(table.workedOut);
    const ranks = table.kept.filter((row) => row.buyer === eager.userId).map((row) => row.rank);
    expect(ranks.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await expectSameFigures();
  }, 120_000);

  it("does not hold one buyer's order until another buyer's transaction commits", async () => {
    const someone = await buyer("two-guests-source");
    const source = await placeFor(someone);
    // Two guests whose buyers' hashes agree in their low 8 bits, as any two buyers' often do.
    const { rows } = await shop.db.execute<{ emails: string[] }>(sql`
      select (array_agg(email order by email))[1:2] as emails
      from (select 'guest-' || i || '@example.in' as email from generate_series(1, 2000) as i) as candidates
      group by hashtext(email) & 255 having count(distinct hashtext(email)) > 1 limit 1`);
    const [first, second] = rows[0]?.emails ?? [];
    const guestOrder = (email: string | undefined, number: string) => sql`
      insert into orders
      select (jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object(
        'id', gen_random_uuid()::text, 'number', ${number}::text, 'user_id', null, 'guest_email', ${email}::text))).*
      from orders o where o.number = ${source}`;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let placed = () => {};
    const firstPlaced = new Promise<void>((resolve) => {
      placed = resolve;
    });
    const open = shop.db.transaction(async (tx) => {
      await tx.execute(guestOrder(first, "PN-2026-600001"));
      placed();
      await held;
    });
    try {
      await firstPlaced;
      await shop.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '3s'`);
        await tx.execute(guestOrder(second, "PN-2026-600002"));
      });
    } finally {
      release();
      await open;
    }
    const table = await keptAndWorkedOut();
    expect(table.kept).toEqual(table.workedOut);
    expect(table.kept.filter((row) => row.buyer === first || row.buyer === second)).toHaveLength(2);
  }, 60_000);
});
