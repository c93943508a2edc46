import path from "node:path";
import { sql } from "drizzle-orm";
import { SALES_TABLES } from "../common/analytics.ts";
import { indianDate } from "../common/india-time.ts";
import { decodeCursor } from "../common/lists.ts";
import type { AdminOrderPage, OrderDetail } from "../common/orders.ts";
import { fillBigShop } from "../scripts/big-shop.ts";
import { makeAdmin, signUpViaApp } from "../tests/accounts.ts";
import { asUser, placeOrderRequest, putInCart, saveAddress } from "../tests/orders.ts";
import { startBenchShop } from "./support.ts";

/**
 * The shop after five years: throw-away shops filled by scripts/big-shop.ts to each size, every request of
 * issue 18's table timed 20 times in a row (median and p95, ms), and the ratio of the largest size to the
 * first day. Sizes: FIVE_YEAR_SIZES=0,100000,1000000 (or FIVE_YEAR_FULL=1); the default stays small so a
 * plain `npm run bench` ends in minutes. Times are wall-clock on a shared machine: compare within a run.
 * FIVE_YEAR_DATA_DIR=/some/dir keeps each filled shop (except the empty one) in dir/<size> and reuses it on the
 * next run, so queries can be tried at a million orders without filling it again (about 2.4 GB at 1 M).
 */
const FULL_SIZES = [0, 100_000, 1_000_000];
const DEFAULT_SIZES = [0, 10_000, 50_000];
const RUNS = 20;
const TARGET_MS = 100;
/** Issue 18: every kind of search under 50 ms at a million orders. */
const SEARCH_TARGET_MS = 50;
const EXPORT_TARGET_MS = 500;
const MAX_RATIO = 2;

function sizes(): number[] {
  if (process.env.FIVE_YEAR_FULL === "1") return FULL_SIZES;
  const listed = process.env.FIVE_YEAR_SIZES;
  if (!listed) return DEFAULT_SIZES;
  const parsed = listed.split(",").map((each) => Number(each.trim()));
  if (parsed.some((each) => !Number.isInteger(each) || each < 0)) {
    throw new Error("FIVE_YEAR_SIZES must be whole numbers separated by commas, like 0,100000,1000000");
  }
  return parsed;
}

type Timing = { median: number; p95: number };
type Row = { name: string; target: number; bySize: Map<number, Timing> };

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;

async function time(run: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<Timing> {
  for (let warm = 0; warm < 3; warm++) {
    await before?.();
    await run();
  }
  const taken: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    await before?.();
    const started = performance.now();
    await run();
    taken.push(performance.now() - started);
  }
  taken.sort((a, b) => a - b);
  return { median: percentile(taken, 0.5), p95: percentile(taken, 0.95) };
}

/** The kept shop of this size, or undefined for a throwaway one (the empty shop is never worth keeping). */
function keptDirOf(size: number): string | undefined {
  const root = process.env.FIVE_YEAR_DATA_DIR;
  return root && size > 0 ? path.resolve(root, String(size)) : undefined;
}

async function measureSize(size: number, rows: Map<string, Row>) {
  const shop = await startBenchShop({}, keptDirOf(size));
  const { app, db } = shop;
  try {
    const started = performance.now();
    const [held] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from orders`)).rows;
    if (held?.count) {
      console.log(`\n${size.toLocaleString("en-IN")} orders: reusing the kept shop (${held.count} orders)`);
    } else {
      const counts = await fillBigShop(db, { orders: size });
      // Written out now, not by the checkpointer while the first requests are timed.
      await db.execute(sql`checkpoint`);
      console.log(
        `\n${size.toLocaleString("en-IN")} orders: filled in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
          `(${counts.orderLines} lines, ${counts.orderEvents} events, ${counts.reviews} reviews)`,
      );
    }
    await db.execute(sql`update products set stock = 1000000; update combos set stock = 1000000`);
    // Fresh addresses each run: a kept shop already holds the accounts of earlier runs.
    const run = Date.now().toString(36);
    const admin = await signUpViaApp(app, `staff-${run}@prakriti.example`);
    await makeAdmin({ db, app }, admin);
    const shopper = await signUpViaApp(app, `shopper-${run}@example.in`);
    const addressId = await saveAddress(app, shopper.cookie);
    const fillCart = () =>
      putInCart(db, shopper.userId, [{ itemId: "coconut-oil" }, { itemId: "face-glow-oil" }]);
    let lastOrder = "";
    const placeOrder = async () => {
      const response = await placeOrderRequest(app, shopper.cookie, { addressId, paymentMethod: "cod" });
      if (response.status !== 201) throw new Error(`order ${response.status} ${await response.text()}`);
      lastOrder = ((await response.json()) as { order: OrderDetail }).order.number;
    };
    for (let index = 0; index < 5; index++) {
      await fillCart();
      await placeOrder();
    }

    // What to look for: a customer and an order from the middle of the five years, a PIN and a city.
    const [sample] = (
      await db.execute<{
        number: string;
        email: string;
        phone: string;
        name: string;
        pin: string;
        city: string;
      }>(
        sql`select o.number, u.email, o.ship_phone as phone, o.ship_name as name, o.ship_pin as pin, o.ship_city as city
            from orders o join users u on u.id = o.user_id
            order by o.created_at desc offset ${Math.floor(size / 2)} limit 1`,
      )
    ).rows;
    const [exportFrom] = (
      await db.execute<{ day: string }>(
        sql`select to_char(created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as day from orders
            order by created_at desc offset 9999 limit 1`,
      )
    ).rows;
    const [bestSeller] = (
      await db.execute<{ slug: string }>(sql`select slug from products where active order by slug limit 1`)
    ).rows;
    const today = indianDate(new Date());
    const yearAgo = indianDate(new Date(Date.now() - 365 * 24 * 3600 * 1000));
    const adminGet = async (path: string) => {
      const response = await app.request(path, asUser(admin.cookie));
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response;
    };
    const adminJson = async <T>(path: string) => (await (await adminGet(path)).json()) as T;
    const pageForty = async () => {
      let page = await adminJson<AdminOrderPage>("/api/admin/orders");
      for (let index = 1; index < 40 && page.next; index++) {
        page = await adminJson<AdminOrderPage>(`/api/admin/orders?after=${page.next}`);
      }
      return page.next;
    };
    const fortieth = size > 0 ? await pageForty() : null;
    if (fortieth && !decodeCursor(fortieth)) throw new Error("bad cursor");

    const search = (q: string | undefined) => () =>
      adminGet(`/api/admin/orders?q=${encodeURIComponent(q ?? "none")}`);
    type Request = [string, () => Promise<unknown>, number, (() => Promise<unknown>)?];
    const yearRange = `?period=range&from=${yearAgo}&to=${today}`;
    const periods: [string, string][] = [
      ["today", "?period=today"],
      ["7 days", "?period=7d"],
      ["30 days", "?period=30d"],
      ["a year's range", yearRange],
    ];
    const requests: Request[] = [
      ["admin search, order number", search(sample?.number ?? "PN-2026-000001"), SEARCH_TARGET_MS],
      ["admin search, e-mail", search(sample?.email ?? "nobody@example.in"), SEARCH_TARGET_MS],
      ["admin search, mobile", search(sample?.phone ?? "9876543210"), SEARCH_TARGET_MS],
      ["admin search, part of a name", search(sample?.name.slice(1, 9) ?? "riya Sha"), SEARCH_TARGET_MS],
      ["admin search, a surname", search(sample?.name.split(" ").at(-1) ?? "Sharma"), SEARCH_TARGET_MS],
      ["admin search, part of a number", search(sample?.number.slice(-6) ?? "000123"), SEARCH_TARGET_MS],
      [
        "admin search, part of an e-mail",
        search(sample?.email.slice(2, 14) ?? "iya.sharma.1"),
        SEARCH_TARGET_MS,
      ],
      ["admin search, PIN", search(sample?.pin ?? "400001"), SEARCH_TARGET_MS],
      ["admin search, city", search(sample?.city ?? "Mumbai"), SEARCH_TARGET_MS],
      ["admin orders list, page 1", () => adminGet("/api/admin/orders"), TARGET_MS],
      ["admin orders list, delivered", () => adminGet("/api/admin/orders?status=delivered"), TARGET_MS],
      [
        "admin orders list, page 40",
        () => adminGet(`/api/admin/orders${fortieth ? `?after=${fortieth}` : ""}`),
        TARGET_MS,
      ],
      [
        "admin orders CSV export (10,000 rows)",
        async () => {
          const response = await adminGet(
            `/api/admin/orders/export.csv?from=${exportFrom?.day ?? "2020-01-01"}`,
          );
          await response.arrayBuffer();
        },
        EXPORT_TARGET_MS,
      ],
      ["admin dashboard figures", () => adminGet("/api/admin/dashboard"), TARGET_MS],
      ["admin summary (people, catalogue)", () => adminGet("/api/admin/summary"), TARGET_MS],
      // The admin home (docs/decisions/080) and every request it makes: today's work, the invoices not issued,
      // and for each period it offers the sales, what happened after the order, the funnel and the carts left
      // behind; then every CSV file its tables offer, for a year (a CSV costs what its figures cost).
      ["admin home: work to do", () => adminGet("/api/admin/analytics/work"), TARGET_MS],
      ["admin home: invoices not issued", () => adminGet("/api/admin/missed-invoices"), TARGET_MS],
      ...periods.flatMap(([label, query]): Request[] => [
        [`admin home: sales, ${label}`, () => adminGet(`/api/admin/analytics/sales${query}`), TARGET_MS],
        [
          `admin home: after the order, ${label}`,
          () => adminGet(`/api/admin/analytics/after-order${query}`),
          TARGET_MS,
        ],
        [`admin home: funnel, ${label}`, () => adminGet(`/api/admin/analytics/funnel${query}`), TARGET_MS],
        [
          `admin home: carts left behind, ${label}`,
          () => adminGet(`/api/admin/cart-reminders/report${query}`),
          TARGET_MS,
        ],
      ]),
      ...[
        ...SALES_TABLES.map((table) => `/api/admin/analytics/sales/${table}.csv`),
        "/api/admin/analytics/after-order/states.csv",
        "/api/admin/analytics/after-order/pins.csv",
        "/api/admin/analytics/funnel/days.csv",
        "/api/admin/cart-reminders/report.csv",
      ].map(
        (file): Request => [
          `admin home: ${file.replace("/api/admin/", "").replace("analytics/", "")}, a year`,
          async () => (await adminGet(`${file}${yearRange}`)).arrayBuffer(),
          TARGET_MS,
        ],
      ),
      ["admin reviews list (pending)", () => adminGet("/api/admin/reviews"), TARGET_MS],
      ["admin reviews list (approved)", () => adminGet("/api/admin/reviews?status=approved"), TARGET_MS],
      ["admin questions list", () => adminGet("/api/admin/questions"), TARGET_MS],
      ["admin messages list", () => adminGet("/api/admin/messages?filter=all"), TARGET_MS],
      ["My Orders", async () => app.request("/api/orders", asUser(shopper.cookie)), TARGET_MS],
      ["one order", async () => app.request(`/api/orders/${lastOrder}`, asUser(shopper.cookie)), TARGET_MS],
      ["products", async () => app.request("/api/products"), TARGET_MS],
      [
        "reviews of the product with the most",
        async () => app.request(`/api/reviews?product=${bestSeller?.slug ?? "coconut-oil"}`),
        TARGET_MS,
      ],
      ["placing an order", placeOrder, TARGET_MS, fillCart],
    ];
    for (const [name, run, target, before] of requests) {
      const timing = await time(run, before);
      const row = rows.get(name) ?? { name, target, bySize: new Map() };
      row.bySize.set(size, timing);
      rows.set(name, row);
    }
    if (size >= 200_000) await measureExportMemory(app, admin.cookie, db);
  } finally {
    await shop.stop();
  }
}

/** A year's export (200,000 orders) read to the end: how much the process grows meanwhile. */
async function measureExportMemory(
  app: Awaited<ReturnType<typeof startBenchShop>>["app"],
  cookie: string,
  db: Awaited<ReturnType<typeof startBenchShop>>["db"],
) {
  const [from] = (
    await db.execute<{ day: string }>(
      sql`select to_char(created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as day from orders
          order by created_at desc offset 199999 limit 1`,
    )
  ).rows;
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const response = await app.request(`/api/admin/orders/export.csv?from=${from?.day}`, asUser(cookie));
  const reader = response.body?.getReader();
  let bytes = 0;
  let lines = 0;
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    bytes += read.value.length;
    for (const byte of read.value) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const grewMb = (peak - before) / 1024 / 1024;
  console.log(
    `\nexport of a year (${(lines - 1).toLocaleString("en-IN")} orders, ${(bytes / 1024 / 1024).toFixed(0)} MB) in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s: the process grew ${grewMb.toFixed(1)} MB at most ` +
      `(target < 50 MB: ${grewMb < 50 ? "met" : "NOT met"})`,
  );
}

function printTable(rows: Map<string, Row>, measured: number[]) {
  const first = measured[0] ?? 0;
  const last = measured.at(-1) ?? 0;
  const cell = (timing: Timing | undefined) =>
    timing ? `${timing.median.toFixed(1)} / ${timing.p95.toFixed(1)}` : "-";
  console.log(
    `\n| request | ${measured.map((size) => `${size.toLocaleString("en-IN")} orders`).join(" | ")} | ratio | target |`,
  );
  console.log(`|---|${measured.map(() => "---|").join("")}---|---|`);
  let allMet = true;
  for (const row of rows.values()) {
    const base = row.bySize.get(first);
    const top = row.bySize.get(last);
    // Sub-millisecond medians make ratios noise: the first day counts as at least 1 ms.
    const ratio = base && top ? top.median / Math.max(base.median, 1) : Number.NaN;
    const fast = top !== undefined && top.median < row.target;
    const flat = !(ratio > MAX_RATIO);
    allMet &&= fast && flat;
    console.log(
      `| ${row.name} | ${measured.map((size) => cell(row.bySize.get(size))).join(" | ")} | ${ratio.toFixed(2)} | ` +
        `< ${row.target} ms: ${fast ? "met" : "NOT met"}; ratio ≤ ${MAX_RATIO}: ${flat ? "met" : "NOT met"} |`,
    );
  }
  console.log(`\nmedian / p95 in ms, ${RUNS} runs each; ratio = median at ${last} / median at ${first}.`);
  console.log(`All targets ${allMet ? "met" : "NOT all met"}.`);
}

export default async function fiveYearBench() {
  const measured = sizes();
  const rows = new Map<string, Row>();
  for (const size of measured) await measureSize(size, rows);
  printTable(rows, measured);
}
