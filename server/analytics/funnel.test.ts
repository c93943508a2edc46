import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FunnelFigures } from "../../common/funnel.ts";
import { indianDate } from "../../common/india-time.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp, startSecondInstance, TEST_ORIGIN } from "../../tests/database.ts";
import { insertOrderRow } from "../../tests/orders.ts";
import { createShop } from "../app.ts";
import { orderEvents } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { funnelFigures, rollUpFunnel } from "./funnel.ts";

/**
 * The funnel counted from the shop's own requests (docs/decisions/090), over real HTTP through two instances on
 * one database, as a proxy would spread shoppers: each session counted once, do-not-track, Global Privacy
 * Control, clients that are not people and the owner's "off" respected; the roll-up keeps the counts and
 * forgets the visitors.
 */
const shop = setUpTestApp();
let second: ReturnType<typeof startSecondInstance>;
let owner: TestAccount;
let staff: TestAccount;
const api = apiCaller(shop, () => owner);
const servers: Server[] = [];
let urls: string[] = [];
let slugs: string[] = [];

/** A browser as a shopper's phone describes itself; each visitor here has its own build number. */
const browser = (visitor: number | string) =>
  `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${visitor}.0 Mobile Safari/537.36`;

async function listen(deps: Deps): Promise<string> {
  const server = createServer(createShop(deps).listener()).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const flushBoth = () => Promise.all([shop.deps.funnel.flush(), second.deps.funnel.flush()]);

/**
 * The counts the dashboard reads for the days still held visitor by visitor (funnel_visit_counts) equal the
 * visitors' rows counted, every day and step.
 */
async function expectCountsKept() {
  const kept = await shop.db.execute(sql`
    select day::text as day, step, sessions from funnel_visit_counts order by day, step`);
  const counted = await shop.db.execute(sql`
    select day::text as day, step, count(*)::int as sessions from funnel_visits group by day, step
    order by day, step`);
  expect(kept.rows).toEqual(counted.rows);
}

/** The raw rows of today, step by step: what the instances wrote (and the counts kept beside them agree). */
async function today() {
  await expectCountsKept();
  const rows = await shop.db.execute<{ step: string; sessions: number }>(sql`
    select step, count(*)::int as sessions from funnel_visits where day = ${indianDate(new Date())}::date
    group by step`);
  return Object.fromEntries(rows.rows.map((row) => [row.step, row.sessions]));
}

const view = (url: string, headers: Record<string, string>, slug = slugs[0]) =>
  fetch(`${url}/api/products/${slug}`, { headers }).then((response) => response.arrayBuffer());

const priceCart = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/api/cart/quote`, {
    method: "POST",
    headers: { ...headers, Origin: TEST_ORIGIN, "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ id: slugs[0], kind: "product", quantity: 1 }] }),
  }).then((response) => response.arrayBuffer());

beforeAll(async () => {
  ({ owner, staff } = await signUpOwnerStaffAndCustomer(shop, "funnel"));
  second = startSecondInstance(shop);
  urls = [await listen(shop.deps), await listen(second.deps)];
  slugs = (
    await shop.db.execute<{ slug: string }>(sql`select slug from products order by slug limit 3`)
  ).rows.map((row) => row.slug);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await second?.end();
});

describe("counting sessions from requests", () => {
  it("counts each visitor once per step however many requests, and instances, it took", async () => {
    await shop.db.execute(sql`delete from funnel_visits`);
    // 40 visitors, each viewing three products twice and pricing a cart three times, half through each
    // instance, all at once; the same product answered again comes from memory (a kept answer).
    const visitors = Array.from({ length: 40 }, (_, index) => index);
    await Promise.all(
      visitors.flatMap((visitor) => {
        const headers = { "User-Agent": browser(visitor) };
        return [0, 1, 2, 3, 4, 5].flatMap((request) => {
          const url = urls[request % 2] as string;
          return [view(url, headers, slugs[request % 3]), ...(request < 3 ? [priceCart(url, headers)] : [])];
        });
      }),
    );
    // Both instances write at once, twice over: additive and idempotent.
    await Promise.all([flushBoth(), flushBoth()]);
    expect(await today()).toEqual({ viewed: 40, added: 40 });
  });

  it("leaves out do-not-track, Global Privacy Control, robots and failed answers", async () => {
    await shop.db.execute(sql`delete from funnel_visits`);
    const url = urls[0] as string;
    await view(url, { "User-Agent": browser("dnt"), DNT: "1" });
    await priceCart(url, { "User-Agent": browser("dnt"), DNT: "1" });
    await view(url, { "User-Agent": browser("gpc"), "Sec-GPC": "1" });
    await view(url, {
      "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    });
    await view(url, { "User-Agent": browser("headless").replace("Chrome/", "HeadlessChrome/") });
    await view(url, {});
    await view(url, { "User-Agent": browser("missing") }, "no-such-product");
    await flushBoth();
    expect(await today()).toEqual({});
    // The same browser without the signals is counted.
    await view(url, { "User-Agent": browser("dnt") });
    await flushBoth();
    expect(await today()).toEqual({ viewed: 1 });
  });

  it("counts nothing while the owner has turned counting off, and again once she turns it on", async () => {
    await shop.db.execute(sql`delete from funnel_visits`);
    const url = urls[1] as string;
    expect(await api("PUT", "/admin/analytics/funnel/settings", { counting: false })).toMatchObject({
      status: 200,
      body: { counting: false },
    });
    expect(await api("PUT", "/admin/analytics/funnel/settings", { counting: true }, staff)).toMatchObject({
      status: 403,
    });
    await view(url, { "User-Agent": browser("while-off") });
    await flushBoth();
    expect(await today()).toEqual({});
    expect((await api("GET", "/admin/analytics/funnel")).body).toMatchObject({ counting: false });

    await api("PUT", "/admin/analytics/funnel/settings", { counting: true });
    await view(url, { "User-Agent": browser("while-on") });
    await flushBoth();
    expect(await today()).toEqual({ viewed: 1 });
    const audit = await shop.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where entity_id = 'funnel-counting'`,
    );
    expect(audit.rows[0]?.n).toBe(2);
  });
});

describe("the roll-up", () => {
  const ist = (day: string) => new Date(`${day}T12:00:00+05:30`);
  const NOW = new Date("2026-03-15T06:30:00Z"); // noon in India, 15 March
  let sequence = 0;

  async function order(status: "placed" | "confirmed" | "cancelled", confirmed = false) {
    const id = await insertOrderRow(shop.db, {
      number: `PN-FUNNEL-${++sequence}`,
      status,
      paymentMethod: "cod",
      createdAt: ist("2026-03-12"),
    });
    if (confirmed) {
      await shop.db
        .insert(orderEvents)
        .values({ orderId: id, fromStatus: "placed", toStatus: "confirmed", actor: "customer" });
    }
    return id;
  }

  it("keeps every day's counts while it forgets the visitors and the past salts", async () => {
    await shop.db.execute(
      sql`delete from funnel_visits; delete from funnel_orders; delete from funnel_days; delete from funnel_salts`,
    );
    // 12 March: 5 viewed, 3 added, 2 reached checkout, 2 ordered (cash on delivery): one confirmed, then
    // cancelled (paid, then no longer a sale), one never confirmed. 14 March (yesterday): 1 viewed.
    const rows: [string, string, string][] = [];
    for (let visitor = 0; visitor < 5; visitor++) rows.push(["2026-03-12", "viewed", `v${visitor}`]);
    for (let visitor = 0; visitor < 3; visitor++) rows.push(["2026-03-12", "added", `v${visitor}`]);
    for (const visitor of ["v0", "v1"]) rows.push(["2026-03-12", "checkout", visitor]);
    for (const visitor of ["v0", "v1"]) rows.push(["2026-03-12", "ordered", visitor]);
    rows.push(["2026-03-14", "viewed", "v9"]);
    for (const [day, step, visitor] of rows) {
      await shop.db.execute(
        sql`insert into funnel_visits (day, step, visitor) values (${day}::date, ${step}, ${visitor})`,
      );
    }
    const confirmedThenCancelled = await order("cancelled", true);
    const waiting = await order("placed");
    await shop.db.execute(sql`
      insert into funnel_orders (order_id, day, visitor) values
        (${confirmedThenCancelled}, '2026-03-12', 'v0'), (${waiting}, '2026-03-12', 'v1')`);
    await shop.db.execute(sql`
      insert into funnel_salts (day, salt) values ('2026-03-13', 'old'), ('2026-03-15', 'today')
      on conflict do nothing`);

    const week = { period: "range", from: "2026-03-09", to: "2026-03-15" } as const;
    const before = await funnelFigures(shop.db, week, NOW);
    expect(before.totals).toEqual({ viewed: 6, added: 3, checkout: 2, ordered: 2, paid: 1 });

    await expectCountsKept();
    expect(await rollUpFunnel(shop.db, NOW)).toBe(1);
    await expectCountsKept();
    // Run again (another instance, a retried job): nothing moves twice.
    expect(await rollUpFunnel(shop.db, NOW)).toBe(0);
    const after = await funnelFigures(shop.db, week, NOW);
    expect(after).toEqual(before);
    expect(after.byDay.find((day) => day.date === "2026-03-12")).toEqual({
      date: "2026-03-12",
      viewed: 5,
      added: 3,
      checkout: 2,
      ordered: 2,
      paid: 1,
    });

    const left = await shop.db.execute<{ visits: number; placed: number; days: number; salts: string }>(sql`
      select (select count(*)::int from funnel_visits) as visits,
             (select count(*)::int from funnel_orders) as placed,
             (select count(*)::int from funnel_days) as days,
             (select string_agg(day::text, ',' order by day) from funnel_salts) as salts`);
    // Yesterday's visitor stays until tomorrow's roll-up; only today's salt is kept.
    expect(left.rows[0]).toEqual({ visits: 1, placed: 0, days: 5, salts: "2026-03-15" });
  });
});

describe("the funnel's figures for the admin", () => {
  it("answers the owner, staff only when she shares the sales, and a CSV of the days", async () => {
    await shop.db.execute(sql`delete from funnel_days`);
    await shop.db.execute(sql`
      insert into funnel_days (day, step, sessions) values
        ('2025-02-03', 'viewed', 200), ('2025-02-03', 'added', 50), ('2025-02-03', 'checkout', 20),
        ('2025-02-03', 'ordered', 10), ('2025-02-03', 'paid', 8), ('2025-02-04', 'viewed', 100)`);
    const range = "period=range&from=2025-02-03&to=2025-02-04";
    const answer = await api("GET", `/admin/analytics/funnel?${range}`);
    expect(answer.status).toBe(200);
    const figures = answer.body as FunnelFigures;
    expect(figures.totals).toEqual({ viewed: 300, added: 50, checkout: 20, ordered: 10, paid: 8 });
    expect(figures.canSwitch).toBe(true);
    expect(figures.byDay.map((day) => day.date)).toEqual(["2025-02-03", "2025-02-04"]);

    expect((await api("GET", `/admin/analytics/funnel?${range}`, undefined, staff)).status).toBe(403);
    const csvAsStaff = await shop.app.request(`/api/admin/analytics/funnel/days.csv?${range}`, {
      headers: { Cookie: staff.cookie },
    });
    expect(csvAsStaff.status).toBe(403);
    await api("PUT", "/admin/analytics/settings", { staffSeeSales: true });
    const asStaff = await api("GET", `/admin/analytics/funnel?${range}`, undefined, staff);
    expect(asStaff.status).toBe(200);
    expect((asStaff.body as FunnelFigures).canSwitch).toBe(false);

    const csv = await shop.app.request(`/api/admin/analytics/funnel/days.csv?${range}`, {
      headers: { Cookie: owner.cookie },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toContain("Day,Viewed a product,Added to cart,Reached checkout,Placed an order,Paid");
    // Drops: 200 to 50 is 75 %, 50 to 20 is 60 %, 20 to 10 is 50 %, 10 to 8 is 20 %.
    expect(lines[1]).toBe("2025-02-03,200,50,20,10,8,75,60,50,20");
    expect(lines[2]).toBe("2025-02-04,100,0,0,0,0,100,,,");
  });
});
