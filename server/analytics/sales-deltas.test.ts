import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { indianDate } from "../../common/india-time.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { placeCodOrder, signUpWithAddress } from "../../tests/orders.ts";
import { registerShopForGst } from "../../tests/shop-details.ts";
import { orders } from "../db/schema.ts";
import { monthsWithin, salesFigures } from "./sales.ts";

/**
 * The per-day sales summary (sales_day_deltas, docs/decisions/094) is exact: after orders placed, confirmed
 * (invoiced), edited, cancelled, returned and refunded, paid online and left unpaid, through the shop's own
 * routes, its sums per day and key equal the same sums over the orders, their lines and the tax documents,
 * and "Sales at a glance" read from it equals the figures read from the orders; its sums per month
 * (sales_month_deltas) equal its days summed per month, and a period's whole months read from them give the
 * figures read from the orders, before and after a fold.
 */
const shop = setUpTestApp();
let staff: TestAccount;
let buyers = 0;

const CHENNAI = {
  name: "Meera Iyer",
  phone: "98765 43210",
  line1: "12, Usman Road",
  line2: "T. Nagar",
  city: "Chennai",
  state: "Tamil Nadu",
  pin: "600017",
};

async function placeOrder(entries: { itemId: string; quantity?: number }[], code?: string) {
  const account = await signUpWithAddress(shop.app, `summed${++buyers}@example.in`);
  return (await placeCodOrder(shop, account, entries, code)).number;
}

const move = async (number: string, status: string, extra: Record<string, string> = {}) => {
  const answer = await callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, {
    as: staff,
    body: { status, ...extra },
  });
  expect(answer.status, `${number} → ${status}: ${JSON.stringify(answer.body)}`).toBe(200);
};

/** The summary's sums per day and key, and the same sums over the orders, lines and documents themselves. */
async function summedAndCounted() {
  const summed = await shop.db.execute(sql`
    select day::text as day, dimension, key, sum(count)::int as count, sum(units)::int as units,
      sum(amount_paise)::bigint::text as amount, sum(other_paise)::bigint::text as other
    from sales_day_deltas group by 1, 2, 3
    having sum(count) <> 0 or sum(units) <> 0 or sum(amount_paise) <> 0 or sum(other_paise) <> 0
    order by 1, 2, 3`);
  const counted = await shop.db.execute(sql`
    select day::text as day, dimension, key, count::int, units::int, amount::text, other::text from (
      select order_indian_day(o.created_at) as day, d.dimension, d.key, count(*) as count, 0 as units,
        sum(o.total_paise)::bigint as amount, sum(d.other)::bigint as other
      from orders o cross join lateral (values ('state', o.ship_state, 0), ('payment', o.payment_method, 0),
        ('code', o.discount_code, o.discount_paise)) as d(dimension, key, other)
      where order_is_sale(o.status) and d.key is not null group by 1, 2, 3
      union all
      select order_indian_day(o.created_at), l.kind, l.item_id, count(*), sum(l.quantity),
        sum(l.line_total_paise), 0
      from order_lines l join orders o on o.id = l.order_id where order_is_sale(o.status) group by 1, 2, 3
      union all
      select order_indian_day(issued_at), kind, '', count(*), 0, sum(taxable_paise), sum(total_paise)
      from tax_documents group by 1, 2
    ) as truth order by 1, 2, 3`);
  return { summed: summed.rows, counted: counted.rows };
}

beforeAll(async () => {
  await registerShopForGst(shop.db);
  staff = await signUpViaApp(shop.app, "summing-desk@example.in");
  await makeAdmin(shop, staff, "staff");
});

describe("the per-day sales summary", () => {
  it("equals the sums over the orders after placing, confirming, editing, cancelling, returning and refunding", async () => {
    const kept = await placeOrder([{ itemId: "bath-powder", quantity: 2 }], "GLOW20");
    const edited = await placeOrder([{ itemId: "bath-powder" }, { itemId: "coconut-oil" }]);
    const moved = await placeOrder([{ itemId: "face-glow-oil" }], "GLOW20");
    const cancelledAfterInvoice = await placeOrder([{ itemId: "coconut-oil", quantity: 3 }]);
    const cancelledAtOnce = await placeOrder([{ itemId: "face-glow-oil", quantity: 2 }], "GLOW20");
    const returned = await placeOrder([{ itemId: "bath-powder" }, { itemId: "face-glow-oil" }]);
    let check = await summedAndCounted();
    expect(check.summed.length).toBeGreaterThan(5);
    expect(check.summed).toEqual(check.counted);

    for (const number of [kept, edited, moved, cancelledAfterInvoice, returned])
      await move(number, "confirmed");
    // Lines edited after the invoice (a credit note and a new invoice), and an address moved to another state.
    const items = await callApi(shop.app, "PUT", `/api/admin/orders/${edited}/items`, {
      as: staff,
      body: { lines: [{ itemId: "bath-powder", kind: "product", quantity: 3 }] },
    });
    expect(items.status, JSON.stringify(items.body)).toBe(200);
    const address = await callApi(shop.app, "PUT", `/api/admin/orders/${moved}/address`, {
      as: staff,
      body: CHENNAI,
    });
    expect(address.status, JSON.stringify(address.body)).toBe(200);
    await move(cancelledAfterInvoice, "cancelled");
    await move(cancelledAtOnce, "cancelled");
    await move(returned, "packed");
    await move(returned, "shipped", { courier: "Delhivery", trackingNumber: "DLV-5550001" });
    await move(returned, "delivered");
    await move(returned, "return_requested");
    await move(returned, "returned");
    await move(returned, "refunded", { refundReference: "UPI-1234567890", refundMethod: "upi" });
    // An order placed on another day, straight in the table, then no longer a sale.
    await shop.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 3 * 86_400_000) })
      .where(eq(orders.number, kept));
    check = await summedAndCounted();
    expect(check.summed).toEqual(check.counted);
    const dimensions = new Set(check.summed.map((row) => row.dimension));
    expect([...dimensions].sort()).toEqual(["code", "credit_note", "invoice", "payment", "product", "state"]);

    await shop.db.update(orders).set({ status: "awaiting_payment" }).where(eq(orders.number, kept));
    await shop.db.delete(orders).where(eq(orders.number, cancelledAtOnce));
    check = await summedAndCounted();
    expect(check.summed).toEqual(check.counted);
  }, 180_000);

  it("gives the same figures as the orders themselves, and again after a fold", async () => {
    const { rows: truth } = await shop.db.execute<{ item_id: string; units: number; revenue: string }>(sql`
      select l.item_id, sum(l.quantity)::int as units, sum(l.line_total_paise)::bigint::text as revenue
      from orders o join order_lines l on l.order_id = o.id
      where order_is_sale(o.status) and order_indian_day(o.created_at) = order_indian_day(now())
      group by 1 order by sum(l.line_total_paise) desc, 2 desc, 1`);
    const { rows: states } = await shop.db.execute<{ state: string; orders: number; sales: string }>(sql`
      select ship_state as state, count(*)::int as orders, sum(total_paise)::bigint::text as sales
      from orders where order_is_sale(status) and order_indian_day(created_at) = order_indian_day(now())
      group by 1 order by sum(total_paise) desc, 1`);
    const expectFigures = async () => {
      const figures = await salesFigures(shop.db, { period: "today" });
      expect(figures.items.map((item) => [item.itemId, item.units, String(item.revenuePaise)])).toEqual(
        truth.map((row) => [row.item_id, row.units, row.revenue]),
      );
      expect(figures.states.map((row) => [row.state, row.orders, String(row.salesPaise)])).toEqual(
        states.map((row) => [row.state, row.orders, row.sales]),
      );
      expect(figures.taxable.invoicedPaise).toBeGreaterThan(0);
      expect(figures.creditNotes.count).toBeGreaterThan(0);
      return figures;
    };
    const before = await expectFigures();
    // Many small changes leave many delta rows: reading folds them into one per day and key.
    for (let index = 0; index < 600; index++) {
      await shop.db.execute(sql`update orders set ship_state = case when ship_state = 'Karnataka' then 'Kerala'
        else 'Karnataka' end where ship_state in ('Karnataka', 'Kerala') and order_is_sale(status)
        and id = (select id from orders where order_is_sale(status) and ship_state in ('Karnataka', 'Kerala')
          order by created_at limit 1)`);
    }
    const rowsBefore = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from sales_day_deltas`,
    );
    expect(rowsBefore.rows[0]?.rows).toBeGreaterThan(1_000);
    expect(await expectFigures()).toEqual(before);
    const rowsAfter = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from sales_day_deltas`,
    );
    expect(rowsAfter.rows[0]?.rows).toBeLessThan(100);
    const check = await summedAndCounted();
    expect(check.summed).toEqual(check.counted);
  }, 180_000);

  it("reads a period's whole months from their sums per month, the same as the orders", async () => {
    const placed = [
      await placeOrder([{ itemId: "coconut-oil", quantity: 2 }]),
      await placeOrder([{ itemId: "face-glow-oil" }]),
      await placeOrder([{ itemId: "coconut-oil" }, { itemId: "face-glow-oil" }]),
    ];
    for (const [number, days] of [
      [placed[0], 40],
      [placed[1], 40],
      [placed[2], 75],
    ] as const) {
      await shop.db
        .update(orders)
        .set({ createdAt: new Date(Date.now() - days * 86_400_000) })
        .where(eq(orders.number, number as string));
    }
    const from = indianDate(new Date(Date.now() - 100 * 86_400_000));
    const to = indianDate(new Date());
    const span = monthsWithin(from, to);
    expect(span.monthFrom < span.monthTo).toBe(true);
    const perMonth = async () => {
      const summed = await shop.db.execute(sql`
        select month::text as month, dimension, key, name, sum(count)::int as count, sum(units)::int as units,
          sum(amount_paise)::bigint::text as amount, sum(other_paise)::bigint::text as other
        from sales_month_deltas group by 1, 2, 3, 4
        having sum(count) <> 0 or sum(units) <> 0 or sum(amount_paise) <> 0 or sum(other_paise) <> 0
        order by 1, 2, 3, 4`);
      const fromDays = await shop.db.execute(sql`
        select date_trunc('month', day)::date::text as month, dimension, key, name, sum(count)::int as count,
          sum(units)::int as units, sum(amount_paise)::bigint::text as amount,
          sum(other_paise)::bigint::text as other
        from sales_day_deltas group by 1, 2, 3, 4
        having sum(count) <> 0 or sum(units) <> 0 or sum(amount_paise) <> 0 or sum(other_paise) <> 0
        order by 1, 2, 3, 4`);
      expect(summed.rows).toEqual(fromDays.rows);
    };
    const expectFigures = async () => {
      const { rows: truth } = await shop.db.execute<{ item_id: string; units: number; revenue: string }>(sql`
        select l.item_id, sum(l.quantity)::int as units, sum(l.line_total_paise)::bigint::text as revenue
        from orders o join order_lines l on l.order_id = o.id
        where order_is_sale(o.status) and order_indian_day(o.created_at) between ${from}::date and ${to}::date
        group by 1 order by sum(l.line_total_paise) desc, 2 desc, 1`);
      const { rows: states } = await shop.db.execute<{ state: string; orders: number; sales: string }>(sql`
        select ship_state as state, count(*)::int as orders, sum(total_paise)::bigint::text as sales
        from orders where order_is_sale(status)
          and order_indian_day(created_at) between ${from}::date and ${to}::date
        group by 1 order by sum(total_paise) desc, 1`);
      const { rows: months } = await shop.db.execute<{ orders: number }>(sql`
        select count(*)::int as orders from orders where order_is_sale(status)
          and order_indian_day(created_at) between ${span.monthFrom}::date and ${span.monthTo}::date`);
      expect(months[0]?.orders).toBeGreaterThan(0);
      const figures = await salesFigures(shop.db, { period: "range", from, to });
      expect(figures.items.map((item) => [item.itemId, item.units, String(item.revenuePaise)])).toEqual(
        truth.map((row) => [row.item_id, row.units, row.revenue]),
      );
      expect(figures.states.map((row) => [row.state, row.orders, String(row.salesPaise)])).toEqual(
        states.map((row) => [row.state, row.orders, row.sales]),
      );
      return figures;
    };
    await perMonth();
    const before = await expectFigures();
    // Many changes to an order of a whole month leave many month rows: reading folds them.
    for (let index = 0; index < 600; index++) {
      await shop.db.execute(sql`update orders set ship_state = case when ship_state = 'Karnataka' then 'Kerala'
        else 'Karnataka' end where number = ${placed[0]}`);
    }
    const rowsBefore = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from sales_month_deltas
        where month between ${span.monthFrom}::date and ${span.monthTo}::date`,
    );
    expect(rowsBefore.rows[0]?.rows).toBeGreaterThan(1_000);
    const after = await expectFigures();
    expect(after.items).toEqual(before.items);
    const rowsAfter = await shop.db.execute<{ rows: number }>(
      sql`select count(*)::int as rows from sales_month_deltas
        where month between ${span.monthFrom}::date and ${span.monthTo}::date`,
    );
    expect(rowsAfter.rows[0]?.rows).toBeLessThan(100);
    await perMonth();
  }, 180_000);
});
