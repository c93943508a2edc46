import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { findFreePort } from "../server/db/embedded.ts";
import { putInCart } from "../tests/orders.ts";
import { makeShoppers } from "./flash-sale.bench.ts";
import { postgresCpuSeconds } from "./order-burst.bench.ts";
import { refreshSessionCopies, startBenchShop } from "./support.ts";

/**
 * `npm run bench -- order-cpu`: the node CPU one placed order and one sold-out refusal cost, measured one
 * request at a time so nothing waits on a lock or a core (decision 069, fourth pass), and PostgreSQL's (all its
 * processes, read from /proc when the kind of answer changes, so in 10 ms ticks over a whole phase). Two rounds: through the
 * Hono app in-process (`app.request`), then over HTTP from a client in a process of its own, so node:http's
 * share shows as the difference. ORDER_CPU_SHOPPERS (default 600) order the one product, half of them placed,
 * half refused; ORDER_CPU_PROFILE=file.cpuprofile profiles the in-process round (summarise it with
 * `node --import tsx bench/profile-summary.ts file.cpuprofile`).
 */
const SHOPPERS = Number(process.env.ORDER_CPU_SHOPPERS ?? 600);
const PRODUCT = "face-glow-oil";
const ORIGIN = "http://localhost:3000";
// Long enough for every copy, renewed one by one just before a round, to last through it (decision 069).
const SESSION_CACHE_SECONDS = 30;

type Shopper = { cookie: string; userId: string; addressId: string };

function countQueries() {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const counter = {
    count: 0,
    restore: () => {
      prototype.query = original;
    },
  };
  prototype.query = function (this: unknown, ...args: unknown[]) {
    counter.count++;
    return original.apply(this, args);
  };
  return counter;
}

function orderInit(cookie: string, addressId: string): RequestInit {
  return {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: ORIGIN,
      Cookie: cookie,
      "Idempotency-Key": crypto.randomUUID(),
    },
    body: JSON.stringify({ addressId, paymentMethod: "cod" }),
  };
}

/** CPU (user+system, ms), queries and statuses of one phase, in-process or over HTTP. */
type Phase = {
  label: string;
  requests: number;
  cpuMs: number;
  userMs: number;
  postgresMs: number;
  queries: number;
  statuses: Record<string, number>;
};

function line({ label, requests, cpuMs, userMs, postgresMs, queries, statuses }: Phase) {
  return `  ${label.padEnd(28)} ${requests} requests ${JSON.stringify(statuses)}: node ${(cpuMs / requests).toFixed(2)} ms CPU each (${(userMs / requests).toFixed(2)} user), PostgreSQL ${(postgresMs / requests).toFixed(2)} ms, ${(queries / requests).toFixed(1)} queries each`;
}

/**
 * Each phase's share of PostgreSQL's CPU: `next` starts a phase (closing the one before) and `end` closes the
 * last. Read between requests, outside the node CPU each request is charged.
 */
function postgresClock(clusterDir: string) {
  let mark = postgresCpuSeconds(clusterDir);
  let open: Phase | undefined;
  const close = () => {
    const now = postgresCpuSeconds(clusterDir);
    if (open) open.postgresMs += (now - mark) * 1000;
    mark = now;
  };
  return {
    next(phase: Phase) {
      close();
      open = phase;
    },
    end: close,
  };
}

async function prepare(shop: Awaited<ReturnType<typeof startBenchShop>>, shoppers: Shopper[], url: string) {
  const { db } = shop;
  await db.execute(sql`delete from cart_items`);
  await db.execute(
    sql`update products set stock = ${Math.floor(shoppers.length / 2)} where slug = ${PRODUCT}`,
  );
  for (const each of shoppers) await putInCart(db, each.userId, [{ itemId: PRODUCT }]);
  await refreshSessionCopies(url, shoppers);
  // Every pooled connection open, so no order pays for a new one's password exchange.
  await Promise.all(Array.from({ length: 20 }, () => db.execute(sql`select pg_sleep(0.05)`)));
}

/** ORDER_CPU_PROFILE=file.cpuprofile: each round profiled into a file of its own, named by the round. */
async function startProfile(round: string) {
  const file = process.env.ORDER_CPU_PROFILE?.replace(/(\.cpuprofile)?$/, `-${round}.cpuprofile`);
  const inspector = file ? new Session() : null;
  if (inspector) {
    inspector.connect();
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
    await inspector.post("Profiler.start");
  }
  return {
    async stop() {
      if (!inspector || !file) return;
      const { profile } = await inspector.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      inspector.disconnect();
    },
  };
}

const clusterOf = (shop: Awaited<ReturnType<typeof startBenchShop>>) =>
  path.join(shop.deps.env.DATA_DIR, "postgres");

async function inProcessRound(shop: Awaited<ReturnType<typeof startBenchShop>>, shoppers: Shopper[]) {
  const postgres = postgresClock(clusterOf(shop));
  const profiled = await startProfile("in-process");
  const phases: Phase[] = [];
  let phase: Phase | undefined;
  const queries = countQueries();
  for (const { cookie, addressId } of shoppers) {
    const before = process.cpuUsage();
    const queriesBefore = queries.count;
    const response = await shop.app.request("/api/orders", orderInit(cookie, addressId));
    await response.arrayBuffer();
    const used = process.cpuUsage(before);
    const label = response.status === 201 ? "in-process, placed" : `in-process, ${response.status}`;
    if (phase?.label !== label) {
      phase = { label, requests: 0, cpuMs: 0, userMs: 0, postgresMs: 0, queries: 0, statuses: {} };
      phases.push(phase);
      postgres.next(phase);
    }
    phase.requests++;
    phase.cpuMs += (used.user + used.system) / 1000;
    phase.userMs += used.user / 1000;
    phase.queries += queries.count - queriesBefore;
    phase.statuses[response.status] = (phase.statuses[response.status] ?? 0) + 1;
  }
  postgres.end();
  queries.restore();
  await profiled.stop();
  return phases;
}

/** The same orders sent one at a time over HTTP, on one kept-alive connection, by bench/crowd.ts. */
async function httpRound(url: string, shoppers: Shopper[], clusterDir: string) {
  const file = path.join(tmpdir(), `order-cpu-plan-${process.pid}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      kind: "sequence",
      url,
      origin: ORIGIN,
      orders: shoppers.map(({ cookie, addressId }) => ({ cookie, addressId })),
    }),
  );
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "crowd.ts"), file],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const postgres = postgresClock(clusterDir);
  const profiled = await startProfile("http");
  const phases: Phase[] = [];
  let phase: Phase | undefined;
  let cpuMark = process.cpuUsage();
  let queriesMark = 0;
  const queries = countQueries();
  let buffered = "";
  // The client reports each answer's status on a line of its own, and waits for a line back before sending the
  // next, so each request's CPU is read between two answers.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk;
      let end = buffered.indexOf("\n");
      while (end >= 0) {
        const status = Number(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        const used = process.cpuUsage(cpuMark);
        const label = status === 201 ? "over HTTP, placed" : `over HTTP, ${status}`;
        if (phase?.label !== label) {
          phase = { label, requests: 0, cpuMs: 0, userMs: 0, postgresMs: 0, queries: 0, statuses: {} };
          phases.push(phase);
          postgres.next(phase);
        }
        phase.requests++;
        phase.cpuMs += (used.user + used.system) / 1000;
        phase.userMs += used.user / 1000;
        phase.queries += queries.count - queriesMark;
        phase.statuses[status] = (phase.statuses[status] ?? 0) + 1;
        queriesMark = queries.count;
        cpuMark = process.cpuUsage();
        child.stdin.write("\n");
        end = buffered.indexOf("\n");
      }
    });
    child.on("exit", (code) => {
      rmSync(file, { force: true });
      if (code === 0) resolve();
      else reject(new Error(`crowd.ts exited ${code}`));
    });
  });
  postgres.end();
  queries.restore();
  await profiled.stop();
  return phases;
}

export default async function orderCpuBench() {
  const shop = await startBenchShop({ SESSION_CACHE_SECONDS: String(SESSION_CACHE_SECONDS) });
  const port = await findFreePort();
  const server = createServer(shop.listener()).listen(port, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  try {
    console.log(`\nMaking ${SHOPPERS} signed-in shoppers...`);
    const shoppers = await makeShoppers(shop.app, shop.db, SHOPPERS);
    // Session copies are trusted one cookie lifetime after the listener starts (decision 069).
    await new Promise((resolve) => setTimeout(resolve, (SESSION_CACHE_SECONDS + 3) * 1000));
    await prepare(shop, shoppers, url);
    const inProcess = await inProcessRound(shop, shoppers);
    await prepare(shop, shoppers, url);
    const overHttp = await httpRound(url, shoppers, clusterOf(shop));
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    console.log(
      `Orders one at a time, ${SHOPPERS} shoppers on ${Math.floor(SHOPPERS / 2)} in stock (load average ${load}):`,
    );
    for (const each of [...inProcess, ...overHttp]) console.log(line(each));
  } finally {
    server.closeAllConnections();
    server.close();
    await shop.stop();
  }
}
