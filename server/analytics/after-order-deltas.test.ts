import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AfterTheOrder } from "../../common/analytics.ts";
import { indianDate, startOfIndianDay } from "../../common/india-time.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { orderRowOf, placeCodOrder, signUpWithAddress } from "../../tests/orders.ts";
import { codConfirmToken } from "../cod/confirm-link.ts";
import { lapseUnconfirmedOrders } from "../cod-orders/confirmation.ts";
import { codRemittances, orders } from "../db/schema.ts";
import { afterTheOrder, cameBackBy } from "./after-order.ts";

/**
 * The per-day "after the order" summary (after_order_day_deltas) is exact: after COD orders placed, confirmed
 * by the shopper and by staff, refused, cancelled by staff, lapsed unanswered, shipped, delivered, returned to
 * origin and their cash recorded, through the shop's own routes and functions, its sums per day and key equal
 * the same sums over the orders, returns, cash and events, and the figures read from it equal those of the
 * statements that read the orders themselves.
 */
const shop = setUpTestApp({ COD_CONFIRM_HOURS: "6" });
let staff: TestAccount;
let buyers = 0;

const PATNA = {
  name: "Ravi Kumar",
  phone: "98765 43211",
  line1: "4, Fraser Road",
  line2: "",
  city: "Patna",
  state: "Bihar",
  pin: "800001",
};

async function placeCod(address?: typeof PATNA) {
  const account = await signUpWithAddress(shop.app, `after${++buyers}@example.in`, address);
  const { number } = await placeCodOrder(shop, account, [{ itemId: "coconut-oil" }]);
  const row = await orderRowOf(shop.db, number);
  expect(row.codConfirmBy).not.toBeNull();
  return row;
}

const shopper = async (row: { id: string; number: string }, action: "confirm" | "cancel") => {
  const token = codConfirmToken(shop.deps.authSecret, row.id);
  const answer = await shop.app.request(
    `/api/cod-confirm/${row.number}/${action}?token=${token}`,
    jsonRequest({ method: "POST", body: {} }),
  );
  expect(answer.status, `${row.number} ${action}: ${await answer.clone().text()}`).toBe(200);
};

const desk = async (path: string, body: unknown, status = 200) => {
  const answer = await callApi(shop.app, "POST", path, { as: staff, body });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(status);
};

const move = (number: string, status: string, extra: Record<string, string> = {}) =>
  desk(`/api/admin/orders/${number}/status`, { status, ...extra });

async function shipAndDeliver(number: string, deliver = true) {
  await move(number, "packed");
  await move(number, "shipped", { courier: "Delhivery", trackingNumber: `DLV-${number}` });
  if (deliver) await move(number, "delivered");
}

/** The summary's sums per day and key, and the same sums over the orders and what hangs on them. */
async function summedAndCounted() {
  const summed = await shop.db.execute(sql`
    select day::text as day, dimension, key, sum(count)::int as count, sum(other_count)::int as other_count,
      sum(amount_paise)::bigint::text as amount, sum(other_paise)::bigint::text as other
    from after_order_day_deltas group by 1, 2, 3
    having sum(count) <> 0 or sum(other_count) <> 0 or sum(amount_paise) <> 0 or sum(other_paise) <> 0
    order by 1, 2, 3`);
  const counted = await shop.db.execute(sql`
    select day::text as day, dimension, key, count::int, other_count::int, amount::text, other::text from (
      select order_indian_day(o.shipped_at) as day, d.dimension, d.key, count(*) as count,
        count(r.order_id) as other_count, coalesce(sum(r.forward_paise + r.return_paise), 0)::bigint as amount,
        0::bigint as other
      from orders o left join order_rto r on r.order_id = o.id
      cross join lateral (values ('state', o.ship_state), ('pin', left(o.ship_pin, 3))) as d(dimension, key)
      where o.shipped_at is not null group by 1, 2, 3
      union all
      select order_indian_day(o.created_at), 'confirm', case
          when e.to_status = 'confirmed' then 'confirmed'
          when e.to_status = 'cancelled' and e.actor = 'customer' then 'refused'
          when e.to_status = 'cancelled' and e.actor = 'system' then 'lapsed'
          when e.to_status = 'cancelled' then 'cancelledByStaff'
          when e.to_status is null then 'waiting'
          else 'confirmed'
        end, count(*), 0, 0, 0
      from orders o left join lateral (
        select to_status, actor from order_events
        where order_id = o.id and from_status = 'placed' and to_status <> 'placed'
        order by created_at, id limit 1
      ) e on true
      where o.payment_method = 'cod' and o.cod_confirm_by is not null group by 1, 2, 3
      union all
      select order_indian_day(o.delivered_at), 'cash', '', count(*), count(c.id), sum(o.total_paise),
        coalesce(sum(c.amount_paise), 0)
      from orders o left join cod_remittances c on c.order_id = o.id
      where o.payment_method = 'cod' and o.delivered_at is not null group by 1, 2, 3
    ) as truth order by 1, 2, 3`);
  // The set-based sums the migration backfills from (and an emptied table is rebuilt from) agree too.
  const backfill = await shop.db.execute(sql`
    select day::text as day, dimension, key, count::int, other_count::int, amount_paise::bigint::text as amount,
      other_paise::bigint::text as other
    from after_order_sums() order by 1, 2, 3`);
  return { summed: summed.rows, counted: counted.rows, backfill: backfill.rows };
}

async function expectExact() {
  const check = await summedAndCounted();
  expect(check.summed).toEqual(check.counted);
  expect(check.backfill).toEqual(check.counted);
  return check.summed;
}

/** The figures as the statements that read the orders themselves gave them, before the summary. */
async function rawFigures(from: string, to: string): Promise<Omit<AfterTheOrder, "period">> {
  const start = startOfIndianDay(from).toISOString();
  const end = new Date(startOfIndianDay(to).getTime() + 86_400_000).toISOString();
  const shipped = sql`o.shipped_at >= ${start}::timestamptz and o.shipped_at < ${end}::timestamptz`;
  const rate = (returned: number, all: number) => (all ? Math.round((returned * 1000) / all) : 0);
  const by = async (key: ReturnType<typeof sql>) =>
    (
      await shop.db.execute<{ key: string; shipped: number; returned: number; cost: string }>(sql`
        select ${key} as key, count(*)::int as shipped, count(r.order_id)::int as returned,
          coalesce(sum(r.forward_paise + r.return_paise), 0)::bigint as cost
        from orders o left join order_rto r on r.order_id = o.id
        where ${shipped}
        group by 1 having count(r.order_id) > 0
        order by returned desc, cost desc, key
        limit 15`)
    ).rows.map((row) => ({
      key: row.key,
      shipped: row.shipped,
      returned: row.returned,
      ratePerMille: rate(row.returned, row.shipped),
      costPaise: Number(row.cost),
    }));
  const [total] = (
    await shop.db.execute<{ shipped: number; returned: number; cost: string }>(sql`
      select count(*)::int as shipped, count(r.order_id)::int as returned,
        coalesce(sum(r.forward_paise + r.return_paise), 0)::bigint as cost
      from orders o left join order_rto r on r.order_id = o.id where ${shipped}`)
  ).rows;
  const outcomes = (
    await shop.db.execute<{ outcome: string; orders: number }>(sql`
      select case
          when e.to_status = 'confirmed' then 'confirmed'
          when e.to_status = 'cancelled' and e.actor = 'customer' then 'refused'
          when e.to_status = 'cancelled' and e.actor = 'system' then 'lapsed'
          when e.to_status = 'cancelled' then 'cancelledByStaff'
          when e.to_status is null then 'waiting'
          else 'confirmed'
        end as outcome, count(*)::int as orders
      from orders o
      left join lateral (
        select to_status, actor from order_events
        where order_id = o.id and from_status = 'placed' and to_status <> 'placed'
        order by created_at, id limit 1
      ) e on true
      where o.payment_method = 'cod' and o.cod_confirm_by is not null
        and o.created_at >= ${start}::timestamptz and o.created_at < ${end}::timestamptz
      group by 1`)
  ).rows;
  const [cash] = (
    await shop.db.execute<{
      delivered: number;
      expected: string;
      collected_orders: number;
      collected: string;
    }>(sql`
      select count(*)::int as delivered, coalesce(sum(o.total_paise), 0)::bigint as expected,
        count(c.id)::int as collected_orders, coalesce(sum(c.amount_paise), 0)::bigint as collected
      from orders o left join cod_remittances c on c.order_id = o.id
      where o.payment_method = 'cod'
        and o.delivered_at >= ${start}::timestamptz and o.delivered_at < ${end}::timestamptz`)
  ).rows;
  const outcome = (name: string) => outcomes.find((row) => row.outcome === name)?.orders ?? 0;
  return {
    rto: {
      shipped: total?.shipped ?? 0,
      returned: total?.returned ?? 0,
      ratePerMille: rate(total?.returned ?? 0, total?.shipped ?? 0),
      costPaise: Number(total?.cost ?? 0),
      byState: await by(sql`o.ship_state`),
      byPinPrefix: await by(sql`left(o.ship_pin, 3)`),
    },
    confirmations: {
      confirmed: outcome("confirmed"),
      refused: outcome("refused"),
      lapsed: outcome("lapsed"),
      cancelledByStaff: outcome("cancelledByStaff"),
      waiting: outcome("waiting"),
    },
    cash: {
      deliveredOrders: cash?.delivered ?? 0,
      expectedPaise: Number(cash?.expected ?? 0),
      collectedOrders: cash?.collected_orders ?? 0,
      collectedPaise: Number(cash?.collected ?? 0),
    },
  };
}

async function expectFiguresAsRaw() {
  const today = indianDate(new Date());
  for (const query of [{ period: "today" as const }, { period: "30d" as const }]) {
    const { period, ...figures } = await afterTheOrder(shop.db, query);
    expect(figures).toEqual(await rawFigures(period.from, period.to));
    const states = await cameBackBy(shop.db, query, "state");
    expect(states.rows).toEqual(figures.rto.byState);
    expect((await cameBackBy(shop.db, query, "pin")).rows).toEqual(figures.rto.byPinPrefix);
  }
  return afterTheOrder(shop.db, { period: "range", from: today, to: today });
}

beforeAll(async () => {
  staff = await signUpViaApp(shop.app, "after-desk@example.in");
  await makeAdmin(shop, staff, "staff");
});

describe("the per-day after-the-order summary", () => {
  it("equals the sums over the orders after confirming, refusing, lapsing, shipping, returning and collecting", async () => {
    const byLink = await placeCod();
    const byStaff = await placeCod(PATNA);
    const refused = await placeCod();
    const cancelledByDesk = await placeCod(PATNA);
    const lapses = await placeCod();
    const waits = await placeCod(PATNA);
    const comesBack = await placeCod(PATNA);
    const cashLater = await placeCod();
    expect(await expectExact()).toHaveLength(1);

    await shopper(byLink, "confirm");
    await desk(`/api/admin/cod-confirm/${byStaff.number}/confirm`, {});
    await shopper(refused, "cancel");
    await desk(`/api/admin/cod-confirm/${cancelledByDesk.number}/cancel`, { reason: "Asked by phone" });
    for (const row of [comesBack, cashLater]) await shopper(row, "confirm");
    // The lapse runs as the clock would once lapses' deadline has passed; the others are answered by then.
    await shop.db
      .update(orders)
      .set({ codConfirmBy: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, lapses.id));
    expect(await lapseUnconfirmedOrders(shop.deps)).toBe(1);
    await expectExact();

    await shipAndDeliver(byLink.number);
    await shipAndDeliver(byStaff.number);
    await shipAndDeliver(cashLater.number);
    await shipAndDeliver(comesBack.number, false);
    await desk(`/api/admin/rto/orders/${comesBack.number}`, { forwardPaise: 7_000, returnPaise: 6_500 }, 201);
    await desk(`/api/admin/rto/orders/${comesBack.number}/received`, {});
    await desk(
      `/api/admin/cod/orders/${byLink.number}/cash`,
      {
        amountPaise: byLink.totalPaise,
        collectedOn: indianDate(new Date()),
        reference: "UTR-AFTER-1",
      },
      201,
    );
    await desk(
      `/api/admin/cod/orders/${byStaff.number}/cash`,
      {
        amountPaise: byStaff.totalPaise,
        collectedOn: indianDate(new Date()),
        reference: "UTR-AFTER-2",
      },
      201,
    );
    const summed = await expectExact();
    expect(new Set(summed.map((row) => row.dimension))).toEqual(new Set(["state", "pin", "confirm", "cash"]));
    const figures = await expectFiguresAsRaw();
    expect(figures.confirmations).toEqual({
      confirmed: 4,
      refused: 1,
      lapsed: 1,
      cancelledByStaff: 1,
      waiting: 1,
    });
    expect(figures.rto).toMatchObject({ shipped: 4, returned: 1, costPaise: 13_500 });
    expect(figures.rto.byState).toEqual([
      { key: "Bihar", shipped: 2, returned: 1, ratePerMille: 500, costPaise: 13_500 },
    ]);
    expect(figures.cash).toMatchObject({ deliveredOrders: 3, collectedOrders: 2 });
    expect(waits.status).toBe("placed");

    // Changes straight in the tables: a parcel shipped and an order placed on other days, a return costed
    // again, cash corrected and removed, an order no longer asked, and one deleted with all that hangs on it.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await shop.db
      .update(orders)
      .set({ shippedAt: daysAgo(3) })
      .where(eq(orders.id, comesBack.id));
    await shop.db
      .update(orders)
      .set({ createdAt: daysAgo(2) })
      .where(eq(orders.id, refused.id));
    await shop.db.execute(sql`update order_rto set return_paise = return_paise + 100`);
    await shop.db
      .update(codRemittances)
      .set({ amountPaise: byLink.totalPaise - 100 })
      .where(eq(codRemittances.orderId, byLink.id));
    await shop.db.delete(codRemittances).where(eq(codRemittances.orderId, byStaff.id));
    await shop.db.update(orders).set({ codConfirmBy: null }).where(eq(orders.id, waits.id));
    await shop.db
      .update(orders)
      .set({ deliveredAt: daysAgo(1) })
      .where(eq(orders.id, cashLater.id));
    await expectExact();
    // Deleted with its money (the ledger keeps its order), its return, cash and events going by the cascade.
    for (const row of [comesBack, byLink, refused]) {
      await shop.db.transaction(async (tx) => {
        await tx.execute(sql`delete from money_ledger where order_id = ${row.id}`);
        await tx.delete(orders).where(eq(orders.id, row.id));
      });
    }
    await expectExact();
    await expectFiguresAsRaw();
  }, 180_000);

  it("gives the same figures after many changes, folded into one row per day and key", async () => {
    const before = await expectFiguresAsRaw();
    const shipped = await placeCod(PATNA);
    await shopper(shipped, "confirm");
    await shipAndDeliver(shipped.number, false);
    // Many small changes leave many delta rows: reading folds them into one per day and key.
    for (let index = 0; index < 600; index++) {
      await shop.db.execute(sql`update orders set ship_pin = case when ship_pin = '800001' then '810001'
        else '800001' end where id = ${shipped.id}`);
    }
    const rowsBefore = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from after_order_day_deltas`,
    );
    expect(rowsBefore.rows[0]?.rows).toBeGreaterThan(1_000);
    const after = await expectFiguresAsRaw();
    expect(after.rto.shipped).toBe(before.rto.shipped + 1);
    const rowsAfter = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from after_order_day_deltas`,
    );
    expect(rowsAfter.rows[0]?.rows).toBeLessThan(100);
    await expectExact();
  }, 180_000);
});
