import { desc, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeCursor, type KeysetCursor } from "../../common/lists.ts";
import type { AdminOrderPage, DashboardFigures } from "../../common/orders.ts";
import { checkMoneyAddsUp, fillBigShop } from "../../scripts/big-shop.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { asUser } from "../../tests/orders.ts";
import { listMessages } from "../contact/contact.data.ts";
import type { Db } from "../db/client.ts";
import { countUpTo } from "../db/keyset.ts";
import * as schema from "../db/schema.ts";
import { orders, users } from "../db/schema.ts";
import { listQuestionsForAdmin } from "../questions/questions.data.ts";
import { listReviewsForAdmin } from "../reviews/reviews.data.ts";
import { dashboardFigures, exportOrdersCsv, listAdminOrders } from "./admin-orders.data.ts";
import { listOrdersOf } from "./orders.data.ts";

/**
 * The order desk on a generated shop (scripts/big-shop.ts, a few thousand orders): keyset pages, capped
 * totals, every kind of search, the streamed export and the dashboard agree with the data, and none of their
 * queries would read all of orders, order_lines or order_events.
 */
const ORDERS = 3_000;
const shop = setUpTestApp();
let admin: TestAccount;

const asAdmin = () => asUser(admin.cookie);
const getPage = async (query: string) => {
  const response = await shop.app.request(`/api/admin/orders${query}`, asAdmin());
  expect(response.status).toBe(200);
  return (await response.json()) as AdminOrderPage;
};

beforeAll(async () => {
  admin = await signUpWithRole(shop, "staff@prakriti.example", "owner");
  await fillBigShop(shop.db, { orders: ORDERS });
}, 120_000);

describe("a generated shop", () => {
  it("checks the ledger's rules once for the whole fill, and leaves the per-row check on for the shop", async () => {
    const { rows: triggers } = await shop.db.execute<{ name: string; enabled: string }>(sql`
      select tgname as name, tgenabled as enabled from pg_trigger
      where tgname in ('orders_money_adds_up', 'money_ledger_adds_up') order by tgname`);
    expect(triggers).toEqual([
      { name: "money_ledger_adds_up", enabled: "O" },
      { name: "orders_money_adds_up", enabled: "O" },
    ]);
    // Cash collected on an online order: the row the trigger would refuse, written with it off, is found.
    const refused = shop.db.transaction(async (tx) => {
      await tx.execute(sql`alter table money_ledger disable trigger money_ledger_adds_up`);
      await tx.execute(sql`
        insert into money_ledger (order_id, kind, amount_paise, applied, reference, note)
        select id, 'cash_collected', total_paise, true, 'test', 'test' from orders
        where payment_method = 'razorpay' order by created_at limit 1`);
      await checkMoneyAddsUp(
        async (_label, statement) => (await tx.execute(sql.raw(statement))).rowCount ?? 0,
      );
    });
    await expect(refused).rejects.toThrow(/money does not add up for orders/);
  });

  it("keeps the shop's rules: totals add up, PINs match states, a status that fits the events", async () => {
    const [check] = (
      await shop.db.execute<{
        orders: number;
        lines: number;
        wrong_subtotal: number;
        wrong_last_event: number;
      }>(sql`
        select (select count(*)::int from orders) as orders,
          (select count(*)::int from order_lines) as lines,
          (select count(*)::int from orders o where o.subtotal_paise <>
            (select sum(line_total_paise) from order_lines l where l.order_id = o.id)) as wrong_subtotal,
          (select count(*)::int from orders o where o.status <> (select to_status from order_events e
            where e.order_id = o.id order by created_at desc, id desc limit 1)) as wrong_last_event`)
    ).rows;
    expect(check).toMatchObject({ orders: ORDERS, wrong_subtotal: 0, wrong_last_event: 0 });
    expect(check?.lines).toBeGreaterThan(ORDERS);
    const statuses = await shop.db.selectDistinct({ status: orders.status }).from(orders);
    expect(statuses.length).toBeGreaterThanOrEqual(8);
  });

  it("fills what the admin home reads: invoices, credit notes, returns to origin, cash, the funnel, carts", async () => {
    const [filled] = (
      await shop.db.execute<Record<string, number>>(sql`
        select (select count(*)::int from tax_documents where kind = 'invoice') as invoices,
          (select count(*)::int from tax_documents where kind = 'credit_note') as credit_notes,
          (select count(*)::int from orders o where o.status in ('confirmed', 'packed', 'shipped', 'delivered',
            'return_requested') and not exists (select 1 from tax_documents d where d.order_id = o.id
            and d.kind = 'invoice')) as without_invoice,
          (select count(*)::int from order_rto) as rto,
          (select count(*)::int from orders where status = 'returned_to_origin') as rto_orders,
          (select count(*)::int from cod_remittances) as remittances,
          (select count(*)::int from orders where payment_method = 'cod' and cod_confirm_by is null) as cod_unasked,
          (select count(distinct day)::int from funnel_days) as funnel_days,
          (select count(*)::int from funnel_visits) as funnel_visits,
          (select count(*)::int from left_carts where reminders_sent > 0) as reminded_carts`)
    ).rows;
    expect(filled).toMatchObject({ without_invoice: 0, cod_unasked: 0, rto: filled?.rto_orders });
    for (const key of ["invoices", "credit_notes", "rto", "remittances", "funnel_days", "funnel_visits"]) {
      expect(filled?.[key], key).toBeGreaterThan(0);
    }
    expect(filled?.reminded_carts).toBeGreaterThan(ORDERS / 2);
  });
});

describe("keyset pages", () => {
  it("walk every cancelled order once, newest first, and back again", async () => {
    const expected = (
      await shop.db
        .select({ number: orders.number })
        .from(orders)
        .where(sql`${orders.status} = 'cancelled'`)
        .orderBy(desc(orders.createdAt), desc(orders.id))
    ).map((row) => row.number);
    expect(expected.length).toBeGreaterThan(50);

    const pages: AdminOrderPage[] = [await getPage("?status=cancelled")];
    expect(pages[0]?.previous).toBeNull();
    expect(pages[0]?.total).toEqual({ count: expected.length, exact: true });
    for (let page = pages[0]; page?.next; ) {
      page = await getPage(`?status=cancelled&after=${page.next}`);
      pages.push(page);
    }
    expect(pages.flatMap((page) => page.orders.map((order) => order.number))).toEqual(expected);
    expect(pages.at(-1)?.next).toBeNull();

    // Back from the last page by `previous` gives the same pages in reverse.
    const back: string[][] = [];
    for (let page = pages.at(-1); page?.previous; ) {
      page = await getPage(`?status=cancelled&before=${page.previous}`);
      back.push(page.orders.map((order) => order.number));
    }
    expect(back.reverse().flat()).toEqual(expected.slice(0, back.flat().length));
    expect(back.flat().length).toBe(expected.length - (pages.at(-1)?.orders.length ?? 0));
  });

  it("count no further than the cap, and refuse a cursor they did not give", async () => {
    expect((await getPage("")).total).toEqual({ count: ORDERS, exact: true });
    const all = shop.db
      .select({ one: sql`1`.as("one") })
      .from(orders)
      .$dynamic();
    expect(await countUpTo(shop.db, all, 100)).toEqual({ count: 100, exact: false });
    const response = await shop.app.request("/api/admin/orders?after=bm90LWEtY3Vyc29y", asAdmin());
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("after");
  });
});

describe("search", () => {
  it("finds an exact number, e-mail or mobile, and parts of a name, number, PIN, city or e-mail", async () => {
    const [sample] = await shop.db
      .select({
        number: orders.number,
        email: users.email,
        phone: orders.shipPhone,
        name: orders.shipName,
        pin: orders.shipPin,
        city: orders.shipCity,
        userId: orders.userId,
      })
      .from(orders)
      .innerJoin(users, sql`${users.id} = ${orders.userId}`)
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (!sample) throw new Error("no orders generated");
    const numbers = async (q: string) => {
      const found: string[] = [];
      for (let page = await getPage(`?q=${encodeURIComponent(q)}`); ; ) {
        found.push(...page.orders.map((order) => order.number));
        if (!page.next) return found;
        page = await getPage(`?q=${encodeURIComponent(q)}&after=${page.next}`);
      }
    };
    const truth = async (where: ReturnType<typeof sql>) =>
      (
        await shop.db.execute<{ number: string }>(sql`select o.number from orders o
          left join users u on u.id = o.user_id where ${where} order by o.created_at desc, o.id desc`)
      ).rows.map((row) => row.number);

    expect(await numbers(sample.number.toLowerCase())).toEqual([sample.number]);
    expect(await numbers(sample.email.toUpperCase())).toEqual(await truth(sql`o.user_id = ${sample.userId}`));
    expect(await numbers(`+91 ${sample.phone}`)).toEqual(await truth(sql`o.ship_phone = ${sample.phone}`));

    const part = (text: string) => `%${text.toLowerCase()}%`;
    const partial = (text: string) =>
      truth(sql`(o.number || ' ' || o.ship_name || ' ' || o.ship_phone || ' ' || o.ship_pin || ' ' || o.ship_city)
        ilike ${part(text)} or u.email ilike ${part(text)}`);
    const name = sample.name.slice(2, 9);
    const numberPart = sample.number.slice(-5);
    const emailPart = sample.email.slice(3, 14);
    // Letters and digits together (ni.10289) can only be part of an e-mail.
    const mixedPart = sample.email.split("@")[0]?.slice(-8) ?? "";
    expect(mixedPart).toMatch(/\d/);
    for (const q of [name, numberPart, sample.pin, emailPart, mixedPart]) {
      const expected = await partial(q);
      expect(expected.length).toBeGreaterThan(0);
      expect(await numbers(q)).toEqual(expected);
    }
    const city = await getPage(`?q=${encodeURIComponent(sample.city.toLowerCase())}`);
    expect(city.orders.length).toBe(25);
    expect(city.orders.every((order) => order.city === sample.city)).toBe(true);
    expect((await getPage("?q=ab")).orders).toEqual([]);
  });
});

describe("the search terms", () => {
  it("follow names and cities as orders are placed and edited, so a part of a new one is found", async () => {
    const [newest] = await shop.db
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (!newest) throw new Error("no orders generated");
    const found = async (q: string) =>
      (await getPage(`?q=${encodeURIComponent(q)}`)).orders.map((order) => order.number);
    expect(await found("Zubeida Quorn")).toEqual([]);
    await shop.db.execute(sql`update orders set ship_name = 'Zubeida Quorn' where id = ${newest.id}`);
    expect(await found("beida quo")).toEqual([newest.number]);

    // A placed order's city, through the insert trigger (a copy of the newest order under a new id).
    await shop.db.execute(sql`insert into orders (id, number, user_id, status, payment_method, subtotal_paise,
        discount_paise, shipping_paise, total_paise, ship_name, ship_phone, ship_line1, ship_city, ship_state,
        ship_pin, estimated_delivery_from, estimated_delivery_to, created_at, updated_at)
      select 'zz-search-terms', 'PN-2026-999999', user_id, 'cancelled', payment_method, subtotal_paise,
        discount_paise, shipping_paise, total_paise, ship_name, ship_phone, ship_line1, 'Quornagar', ship_state,
        ship_pin, estimated_delivery_from, estimated_delivery_to, now() - interval '1 year', now()
      from orders where id = ${newest.id}`);
    expect(await found("ornaga")).toEqual(["PN-2026-999999"]);
    const [terms] = (
      await shop.db.execute<{ count: number }>(
        sql`select count(*)::int as count from order_search_terms where term in ('Zubeida Quorn', 'Quornagar')`,
      )
    ).rows;
    expect(terms?.count).toBe(2);
    await shop.db.execute(sql`delete from orders where id = 'zz-search-terms'`);
  });
});

describe("the export", () => {
  const readAll = async (pieces: AsyncGenerator<string>) => {
    const read: string[] = [];
    for await (const piece of pieces) read.push(piece);
    return read;
  };

  it("streams every matching order in pieces, newest first", async () => {
    const response = await shop.app.request("/api/admin/orders/export.csv", asAdmin());
    expect(response.status).toBe(200);
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const lines = text.split("\r\n");
    expect(lines).toHaveLength(ORDERS + 2);
    const newest = await shop.db
      .select({ number: orders.number })
      .from(orders)
      .orderBy(desc(orders.createdAt))
      .limit(1);
    expect(lines[1]?.startsWith(`${newest[0]?.number},`)).toBe(true);

    // Small batches: each a keyset step past the last, together the same file, one piece per batch.
    const pieces = await readAll(await exportOrdersCsv(shop.db, {}, 700));
    expect(pieces).toHaveLength(1 + Math.ceil(ORDERS / 700));
    expect(pieces.join("")).toBe(text);
  });

  it("writes each cell as the spreadsheet-safe CSV of what the order holds", async () => {
    const [order] = await shop.db
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .where(sql`${orders.userId} is not null and ${orders.discountCode} is null`)
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (!order) throw new Error("no order generated");
    await shop.db.execute(sql`update orders set ship_name = ${"-1+1"}, ship_line1 = ${'Flat 2\nBlock "C"'},
      ship_line2 = '', ship_city = ${"@Pune"}, courier = ${"=cmd"}, tracking_number = null where id = ${order.id}`);
    const [truth] = (
      await shop.db.execute<Record<string, string | number | null>>(sql`select o.number, u.email,
        to_char(o.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI') as placed, o.status,
        o.payment_method,
        exists (select 1 from money_ledger l where l.order_id = o.id and l.kind = 'online_payment' and l.applied) as paid,
        o.ship_phone, o.ship_state, o.ship_pin,
        o.subtotal_paise, o.discount_paise, o.shipping_paise, o.total_paise,
        (select string_agg(quantity || ' x ' || name, '; ' order by position) from order_lines
          where order_id = o.id) as items
        from orders o join users u on u.id = o.user_id where o.id = ${order.id}`)
    ).rows;
    if (!truth) throw new Error("no order");
    const rupees = (paise: unknown) => (Number(paise) / 100).toFixed(2);
    const text = (await readAll(await exportOrdersCsv(shop.db, { q: order.number }))).join("");
    const [, line] = text.split("\r\n");
    expect(line).toBe(
      [
        truth.number,
        truth.placed,
        truth.status,
        truth.payment_method === "cod" ? "Cash on delivery" : "Razorpay",
        truth.paid ? "yes" : "no",
        truth.email,
        "'-1+1",
        truth.ship_phone,
        '"Flat 2\nBlock ""C"""',
        "'@Pune",
        truth.ship_state,
        truth.ship_pin,
        String(truth.items).includes(",") ? `"${truth.items}"` : truth.items,
        rupees(truth.subtotal_paise),
        "",
        rupees(truth.discount_paise),
        rupees(truth.shipping_paise),
        rupees(truth.total_paise),
        "'=cmd",
        "",
      ].join(","),
    );
  });
});

describe("the dashboard", () => {
  it("counts orders by status exactly, also after changes and a fold of the deltas", async () => {
    const truth = async () =>
      Object.fromEntries(
        (
          await shop.db.execute<{ status: string; count: number }>(
            sql`select status, count(*)::int as count from orders group by status`,
          )
        ).rows.map((row) => [row.status, row.count]),
      );
    const salesTruth = async () =>
      Object.fromEntries(
        (
          await shop.db.execute<{ day: string; orders: number; revenue: number }>(
            sql`select order_indian_day(created_at)::text as day, count(*)::int as orders, sum(total_paise)::int as revenue
                from orders where order_is_sale(status)
                  and order_indian_day(created_at) >= order_indian_day(now()) - 29 group by 1`,
          )
        ).rows.map((row) => [row.day, { orders: row.orders, revenuePaise: row.revenue }]),
      );
    const counted = async () => {
      const figures = await dashboardFigures(shop.db, new Date(), 10);
      const sales = Object.fromEntries(
        figures.revenueByDay
          .filter((day) => day.orders !== 0 || day.revenuePaise !== 0)
          .map((day) => [day.date, { orders: day.orders, revenuePaise: day.revenuePaise }]),
      );
      expect(sales).toEqual(await salesTruth());
      return Object.fromEntries(
        figures.byStatus.filter((entry) => entry.count > 0).map((entry) => [entry.status, entry.count]),
      );
    };
    expect(await counted()).toEqual(await truth());
    // Six hundred single-row changes leave 1,200 delta rows; reading folds them.
    for (let index = 0; index < 600; index++) {
      await shop.db.execute(sql`update orders set status = case when status = 'delivered' then 'returned' else 'delivered' end
        where id = (select id from orders where status in ('delivered', 'returned') order by created_at desc, id limit 1 offset ${index % 7})`);
    }
    expect(await counted()).toEqual(await truth());
    const [left] = (
      await shop.db.execute<{ rows: number }>(
        sql`select (select count(*) from order_status_deltas)::int as rows`,
      )
    ).rows;
    expect(left?.rows).toBeLessThanOrEqual(10);
    expect(await counted()).toEqual(await truth());
    const figures = (await (
      await shop.app.request("/api/admin/dashboard", asAdmin())
    ).json()) as DashboardFigures;
    expect(figures.revenueByDay).toHaveLength(30);
    expect(figures.revenueByDay.some((day) => day.orders > 0)).toBe(true);
    // Today is the last of the 30 days (checked against the table above). The generated orders end now, so
    // in an Indian day's first minutes it may still have none: no count of its own is assumed.
    const lastDay = figures.revenueByDay.at(-1);
    expect(figures.today).toEqual({ orders: lastDay?.orders, revenuePaise: lastDay?.revenuePaise });
  });
});

/**
 * The plan's scan nodes that read a whole big table: a sequential scan; an index walked without a condition
 * unless a Limit stops the walk early (the newest page) with nothing in between that must read everything
 * first (a sort, an aggregate, a hash); or such a walk whose filter threw away most of the table to find
 * its rows (EXPLAIN ANALYZE counts them), which at a million orders is a search reading them all.
 */
function wholeTableReads(plan: PlanNode, sizes: Map<string, number>, limited = false): string[] {
  const here: string[] = [];
  const relation = plan["Relation Name"];
  const type = plan["Node Type"];
  if (relation && BIG_TABLES.has(relation)) {
    if (type === "Seq Scan") here.push(`Seq Scan on ${relation}`);
    const walked = (type === "Index Scan" || type === "Index Only Scan") && plan["Index Cond"] === undefined;
    const removed = (plan["Rows Removed by Filter"] ?? 0) * (plan["Actual Loops"] ?? 1);
    if (walked && !limited) here.push(`${type} of all ${relation}`);
    if (walked && limited && removed > (sizes.get(relation) ?? 0) / 2) {
      here.push(`${type} of ${relation} filtering out ${removed} rows`);
    }
  }
  const passesLimit = (limited || type === "Limit") && !READS_EVERYTHING_FIRST.has(type);
  return [
    ...here,
    ...(plan.Plans ?? []).flatMap((child) =>
      wholeTableReads(
        child,
        sizes,
        passesLimit && !["InitPlan", "SubPlan"].includes(child["Parent Relationship"] ?? ""),
      ),
    ),
  ];
}
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  "Rows Removed by Filter"?: number;
  "Actual Loops"?: number;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
};
const READS_EVERYTHING_FIRST = new Set(["Sort", "Aggregate", "Hash", "Materialize", "SetOp", "Unique"]);
const BIG_TABLES = new Set([
  "orders",
  "order_lines",
  "order_events",
  "reviews",
  "questions",
  "contact_messages",
  "order_search_terms",
]);

/**
 * EXPLAIN ANALYZE with sequential scans off, planned as for a five-year shop: the generated tables are
 * small, and on a few thousand rows reading a whole table is cheap and the planner rightly picks it. So the
 * planner is told (PostgreSQL 18's pg_restore_relation_stats) that they hold what they would at a million
 * orders, packed into the pages they have, and shows the plan it would take then.
 */
const FIVE_YEAR_ROWS: Record<string, number> = {
  orders: 1_000_000,
  order_lines: 1_750_000,
  order_events: 5_000_000,
  users: 100_000,
  reviews: 50_000,
  questions: 10_000,
  contact_messages: 5_000,
  // Distinct names and cities: a real shop's customers repeat far less than generated ones.
  order_search_terms: 50_000,
};

async function planOf(client: pg.PoolClient, query: string, params: unknown[] = []): Promise<PlanNode> {
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (analyze, format json) ${query}`,
    params,
  );
  const plan = rows[0]?.["QUERY PLAN"][0]?.Plan;
  if (!plan) throw new Error(`no plan for ${query}`);
  return plan;
}

async function withIndexPlans<T>(run: (client: pg.PoolClient, sizes: Map<string, number>) => Promise<T>) {
  const pool = (shop.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    const sizes = new Map<string, number>();
    for (const table of BIG_TABLES) {
      sizes.set(table, Number((await client.query(`select count(*) as n from ${table}`)).rows[0]?.n));
    }
    for (const [table, rows] of Object.entries(FIVE_YEAR_ROWS)) {
      await client.query(
        `select pg_restore_relation_stats('schemaname', 'public', 'relname', $1::text,
           'relpages', greatest(1, pg_relation_size($1::regclass) / 8192)::integer, 'reltuples', $2::real)`,
        [table, rows],
      );
    }
    await client.query("set enable_seqscan = off");
    return await run(client, sizes);
  } finally {
    await client.query("reset enable_seqscan");
    await client.query(
      "analyze orders, order_lines, order_events, users, reviews, questions, contact_messages, order_search_terms",
    );
    client.release();
  }
}

describe("the order desk's queries", () => {
  it("each use an index instead of reading all orders, lines or events", async () => {
    // Every query the list, search, export and dashboard send, recorded through a logging connection.
    const recorded: { query: string; params: unknown[] }[] = [];
    const pool = (shop.db as unknown as { $client: pg.Pool }).$client;
    const logged = drizzle(pool, {
      schema,
      logger: { logQuery: (query, params) => recorded.push({ query, params }) },
    }) as unknown as Db;
    const [sample] = await shop.db
      .select({ number: orders.number, email: users.email, phone: orders.shipPhone, pin: orders.shipPin })
      .from(orders)
      .innerJoin(users, sql`${users.id} = ${orders.userId}`)
      .limit(1);
    if (!sample) throw new Error("no orders generated");
    const first = await listAdminOrders(logged, {});
    const after = first.next ? decodeCursor(first.next) : null;
    await listAdminOrders(logged, { after: after ?? undefined });
    await listAdminOrders(logged, { before: after ?? undefined });
    await listAdminOrders(logged, { status: "delivered" });
    await listAdminOrders(logged, { status: "return_requested" });
    await listAdminOrders(logged, { status: "shipped", from: "2024-01-01", to: "2025-12-31" });
    await listAdminOrders(logged, { from: "2025-01-01", to: "2025-01-31" });
    const rare = [sample.email.slice(2, 12), sample.number.slice(-5), "Sharma", "ample.in", "zzzq"];
    for (const q of [sample.number, sample.email, sample.phone, sample.pin, ...rare]) {
      await listAdminOrders(logged, { q });
    }
    for await (const _piece of await exportOrdersCsv(logged, { from: "2024-01-01" })) {
      // read to the end
    }
    for await (const _piece of await exportOrdersCsv(logged, { q: "Sharma" })) {
      // read to the end
    }
    await dashboardFigures(logged, new Date(), 10);
    expect(recorded.length).toBeGreaterThan(30);

    const problems = await withIndexPlans(async (client, sizes) => {
      const found: string[] = [];
      for (const { query, params } of recorded) {
        if (/\b(insert|update|delete)\b/i.test(query)) continue;
        for (const read of wholeTableReads(await planOf(client, query, params), sizes)) {
          found.push(`${read}: ${query}`);
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it("catches a query that would read a whole table", async () => {
    await withIndexPlans(async (client, sizes) => {
      const reads = async (query: string) => wholeTableReads(await planOf(client, query), sizes);
      expect(await reads("select count(*) from orders")).not.toEqual([]);
      expect(await reads("select * from order_lines where name ilike '%oil%'")).not.toEqual([]);
      expect(await reads("select * from order_events where note = 'x'")).not.toEqual([]);
      expect(
        await reads("select * from orders where ship_name ilike '%zzzq%' order by created_at desc limit 25"),
      ).not.toEqual([]);
      expect(await reads("select * from reviews where title ilike '%oil%'")).not.toEqual([]);
      expect(await reads("select count(*) from questions where not hidden")).not.toEqual([]);
      expect(await reads("select count(*) from contact_messages")).not.toEqual([]);
      expect(await reads("select * from orders order by created_at desc, id desc limit 25")).toEqual([]);
    });
  });
});

/** Every query a function sends, recorded through a logging connection to the same pool. */
function recordingDb() {
  const recorded: { query: string; params: unknown[] }[] = [];
  const pool = (shop.db as unknown as { $client: pg.Pool }).$client;
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => recorded.push({ query, params }) },
  }) as unknown as Db;
  return { db, recorded };
}

/** The user with the most generated orders, for My Orders. */
async function busiestCustomer() {
  const [row] = await shop.db
    .select({ userId: orders.userId, count: sql<number>`count(*)::int` })
    .from(orders)
    .where(sql`${orders.userId} is not null`)
    .groupBy(orders.userId)
    .orderBy(desc(sql`count(*)`))
    .limit(1);
  if (!row?.userId) throw new Error("no customer with orders");
  return row as { userId: string; count: number };
}

type Walked<Row> = { items: Row[]; next: string | null; previous: string | null };

/** Every row of a keyset list, by `next` to the end and by `previous` back to the start. */
async function walk<Row>(
  pageOf: (position: { after?: KeysetCursor; before?: KeysetCursor }) => Promise<Walked<Row>>,
  key: (row: Row) => string,
) {
  const cursor = (text: string) => decodeCursor(text) ?? undefined;
  const pages = [await pageOf({})];
  for (let page = pages[0]; page?.next; ) {
    page = await pageOf({ after: cursor(page.next) });
    pages.push(page);
  }
  const back: string[][] = [];
  for (let page = pages.at(-1); page?.previous; ) {
    page = await pageOf({ before: cursor(page.previous) });
    back.unshift(page.items.map(key));
  }
  return {
    forward: pages.flatMap((page) => page.items.map(key)),
    back: back.flat(),
    last: pages.at(-1)?.items.length ?? 0,
  };
}

describe("the other long lists", () => {
  it("walk every review, question, message and customer's order once, newest first, and back", async () => {
    // Messages and questions that share one timestamp, so the id alone orders them across a page break.
    await shop.db.execute(sql`insert into contact_messages (name, email, message, created_at, updated_at)
      select 'Tie ' || i, 'tie' || i || '@example.in', 'Same moment', '2026-01-01T10:00:00.123456Z',
        '2026-01-01T10:00:00.123456Z' from generate_series(1, 120) as i`);
    await shop.db.execute(sql`insert into questions (product_slug, body, created_at, updated_at)
      select (select slug from products order by slug limit 1), 'Same moment question ' || i,
        '2026-01-01T10:00:00.123456Z', '2026-01-01T10:00:00.123456Z' from generate_series(1, 120) as i`);
    const truth = async (query: ReturnType<typeof sql>) =>
      (await shop.db.execute<{ id: string }>(query)).rows.map((row) => row.id);
    const expectWalk = (walked: Awaited<ReturnType<typeof walk>>, expected: string[]) => {
      expect(walked.forward).toEqual(expected);
      expect(walked.back).toEqual(expected.slice(0, expected.length - walked.last));
    };

    const approved = await truth(
      sql`select id from reviews where status = 'approved' order by created_at desc, id desc`,
    );
    expect(approved.length).toBeGreaterThan(50);
    expectWalk(
      await walk(
        (position) => listReviewsForAdmin(shop.db, { status: "approved", ...position }),
        (r) => r.id,
      ),
      approved,
    );

    const messages = await truth(sql`select id from contact_messages order by created_at desc, id desc`);
    const inbox = await walk(
      (position) => listMessages(shop.db, { filter: "all", ...position }),
      (m) => m.id,
    );
    expectWalk(inbox, messages);

    for (const [status, where] of [
      ["all", sql`true`],
      ["unanswered", sql`answer is null and not hidden`],
    ] as const) {
      const expected = await truth(
        sql`select id from questions where ${where} order by created_at desc, id desc`,
      );
      expect(expected.length).toBeGreaterThan(100);
      expectWalk(
        await walk(
          (position) => listQuestionsForAdmin(shop.db, { status, ...position }),
          (q) => q.id,
        ),
        expected,
      );
    }

    const customer = await busiestCustomer();
    expect(customer.count).toBeGreaterThan(10);
    const mine = (
      await shop.db
        .select({ number: orders.number })
        .from(orders)
        .where(sql`${orders.userId} = ${customer.userId}`)
        .orderBy(desc(orders.createdAt), desc(orders.id))
    ).map((row) => row.number);
    const walked = await walk(
      async (position) => {
        const page = await listOrdersOf(shop.db, customer.userId, position);
        return { ...page, items: page.orders };
      },
      (order) => order.number,
    );
    expectWalk(walked, mine);
    expect((await listOrdersOf(shop.db, customer.userId, {})).total).toEqual({
      count: customer.count,
      exact: true,
    });

    const tabs = await listQuestionsForAdmin(shop.db, { status: "hidden" });
    const [counted] = (
      await shop.db.execute<{ all: number; hidden: number }>(
        sql`select count(*)::int as all, count(*) filter (where hidden)::int as hidden from questions`,
      )
    ).rows;
    expect(tabs.counts.all).toEqual({ count: counted?.all, exact: true });
    expect(tabs.total).toEqual({ count: counted?.hidden, exact: true });
  });

  it("each read an index instead of all reviews, questions, messages or orders", async () => {
    const { db, recorded } = recordingDb();
    const position = <Page extends { next: string | null }>(page: Page) =>
      page.next ? (decodeCursor(page.next) ?? undefined) : undefined;
    for (const status of ["pending", "approved", "rejected"] as const) {
      const first = await listReviewsForAdmin(db, { status });
      await listReviewsForAdmin(db, { status, after: position(first) });
      await listReviewsForAdmin(db, { status, before: position(first) });
    }
    for (const status of ["all", "unanswered", "answered", "hidden"] as const) {
      const first = await listQuestionsForAdmin(db, { status });
      await listQuestionsForAdmin(db, { status, after: position(first) });
    }
    for (const filter of ["all", "unread"] as const) {
      const first = await listMessages(db, { filter });
      await listMessages(db, { filter, after: position(first) });
      await listMessages(db, { filter, before: position(first) });
    }
    const customer = await busiestCustomer();
    const first = await listOrdersOf(db, customer.userId, {});
    await listOrdersOf(db, customer.userId, { after: position(first) });
    expect(recorded.length).toBeGreaterThan(30);

    const problems = await withIndexPlans(async (client, sizes) => {
      const found: string[] = [];
      for (const { query, params } of recorded) {
        for (const read of wholeTableReads(await planOf(client, query, params), sizes)) {
          found.push(`${read}: ${query}`);
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
  });
});
