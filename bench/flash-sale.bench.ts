import { spawn } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { runServer } from "../scripts/build-server.ts";
import type { Db } from "../server/db/client.ts";
import { findFreePort } from "../server/db/embedded.ts";
import { sessions, users } from "../server/db/schema.ts";
import { GENEROUS_RATE_LIMITS, TEST_AUTH_SECRET } from "../tests/database.ts";
import { putInCart, saveAddress } from "../tests/orders.ts";
import type { LoadPlan, LoadResult } from "./load.ts";
import { refreshSessionCopies, startBenchShop } from "./support.ts";

/**
 * The brand's best day (issue 27): a crowd of signed-in shoppers with tabs open while visitors load a product
 * page, then hundreds ordering the one product left. The shop serves over real HTTP from this process; the load
 * comes from processes of their own (bench/load.ts for rates, bench/crowd.ts for open tabs and the burst).
 * Each rate is paired with a bare node:http server answering the same bytes, measured right after it by the
 * same tool, and its ratio is to that.
 */
/**
 * `npm run bench -- flash-sale --quick`: every row at a smaller scale (a few minutes in all), to see a change's
 * effect; the targets are those of the full scale, which is the default.
 */
const QUICK = process.argv.includes("--quick");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 5));
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? (QUICK ? 200 : 400));
const STOCK = Math.floor(SHOPPERS / 2);
const CROWD_TABS = Number(process.env.BENCH_CROWD_TABS ?? (QUICK ? 1000 : 5000));
/**
 * The held tabs go to the shop as `npm start` runs it with SHOP_WORKERS=FLASH_SALE_WORKERS (2: one per core here),
 * in processes of its own; `--on-workers` sends every other row there too, instead of to the shop served from
 * this process. `--only=rows,crowd,held,burst` runs only those parts.
 */
const WORKERS = Number(process.env.FLASH_SALE_WORKERS ?? 2);
const ALL_ON_WORKERS = process.argv.includes("--on-workers");
const ONLY = process.argv
  .find((argument) => argument.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const runs = (part: "rows" | "crowd" | "held" | "burst") => !ONLY || ONLY.includes(part);
/** A process's limit on open files (each held tab is one): each worker can hold no more tabs than that. */
const OPEN_FILES = Number(
  /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1] ?? 20_000,
);
// Aim 20,000; short of the workers' limits by what each needs open itself (database, listeners, files).
const HELD_TABS = Math.min(
  Number(process.env.BENCH_HELD_TABS ?? (QUICK ? 2000 : 20_000)),
  WORKERS * (OPEN_FILES - 500),
);
// The bench waits one cookie lifetime for the session cache to be trusted (decision 069); a short one here.
const SESSION_CACHE_SECONDS = QUICK ? 20 : 30;
const ORIGIN = "http://localhost:3000";
const PRODUCT = "face-glow-oil";

type Row = { name: string; result: LoadResult; baseline: number };

let plans = 0;
const planFiles: string[] = [];
/** bench/load.ts takes its plan as an argument; bench/crowd.ts as a file (its cookies are too long for one). */
function child(script: string, plan: unknown) {
  let argument = JSON.stringify(plan);
  if (script === "crowd.ts") {
    const file = path.join(tmpdir(), `flash-sale-plan-${process.pid}-${plans++}.json`);
    writeFileSync(file, argument);
    planFiles.push(file);
    argument = file;
  }
  return spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, script), argument], {
    stdio: ["pipe", "pipe", "inherit"],
  });
}

/** The first JSON line a child prints (and the child, still running when it is a crowd). */
function firstLine(process: ReturnType<typeof child>) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk;
      const end = output.indexOf("\n");
      if (end < 0) return;
      process.stdout.off("data", onData);
      resolve(JSON.parse(output.slice(0, end)) as Record<string, unknown>);
    };
    process.stdout.on("data", onData);
    process.on("exit", (code) => reject(new Error(`${code}: ${output}`)));
  });
}

function load(url: string, scenario: LoadPlan["scenario"]) {
  const plan: LoadPlan = {
    url,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    scenario,
    autocannon: true,
  };
  return firstLine(child("load.ts", plan)) as Promise<unknown> as Promise<LoadResult>;
}

/** A crowd of open tabs, split over processes of a few thousand each (one process may open only so many files). */
async function openTabs(url: string, cookies: string[], count: number) {
  const perProcess = 5000;
  const crowds = Array.from({ length: Math.ceil(count / perProcess) }, (_, index) =>
    child("crowd.ts", {
      kind: "streams",
      url,
      cookies,
      count: Math.min(perProcess, count - index * perProcess),
    }),
  );
  const opened = await Promise.all(crowds.map(firstLine));
  return {
    open: opened.reduce((sum, each) => sum + Number(each.open), 0),
    failed: opened.reduce((sum, each) => sum + Number(each.failed), 0),
    async close() {
      const finals = await Promise.all(
        crowds.map((crowd) => {
          const done = firstLine(crowd);
          crowd.stdin.end();
          return done;
        }),
      );
      return { events: finals.reduce((sum, each) => sum + Number(each.events), 0) };
    },
  };
}

/**
 * Accounts with a session each, written straight to the database (a password sign-up costs a scrypt hash, which
 * is not what this measures), and the signed session cookie Better Auth would have set; an address each.
 */
export async function makeShoppers(app: Hono, db: Db, count: number) {
  const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000);
  const rows = Array.from({ length: count }, (_, index) => ({
    userId: randomUUID(),
    token: randomBytes(24).toString("base64url"),
    email: `crowd-${index}@example.in`,
  }));
  await db
    .insert(users)
    .values(rows.map(({ userId, email }) => ({ id: userId, name: "Crowd", email, emailVerified: true })));
  await db.insert(sessions).values(
    rows.map(({ userId, token }) => ({
      id: randomUUID(),
      token,
      userId,
      expiresAt,
      ipAddress: "127.0.0.1",
    })),
  );
  const shoppers: { cookie: string; userId: string; addressId: string }[] = [];
  for (const { userId, token } of rows) {
    const signature = createHmac("sha256", TEST_AUTH_SECRET).update(token).digest("base64");
    const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
    shoppers.push({ cookie, userId, addressId: await saveAddress(app, cookie) });
  }
  return shoppers;
}

/** The first message of a signed-in tab's cart stream, as the shop sends it. */
async function firstEvent(url: string, cookie: string) {
  const response = await fetch(`${url}/api/cart/events`, {
    headers: { Cookie: cookie, Accept: "text/event-stream" },
  });
  const reader = response.body?.getReader();
  let text = "";
  while (reader && !text.includes("\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader?.cancel();
  return `${text.slice(0, text.indexOf("\n\n"))}\n\n`;
}

/** bench/bare-streams.ts: WORKERS bare node:http processes answering each request with one event, held open. */
async function bareStreams(first: string) {
  const port = await findFreePort();
  const bare = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(import.meta.dirname, "bare-streams.ts"),
      String(port),
      String(WORKERS),
      JSON.stringify(first),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    bare.stdout.on("data", (chunk: Buffer) => {
      if (String(chunk).includes("ready")) resolve();
    });
    bare.on("exit", (code) => reject(new Error(`bare streams ended with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        bare.once("exit", () => resolve());
        bare.kill("SIGTERM");
      }),
  };
}

/**
 * The shop as `npm start` runs it, with SHOP_WORKERS=workers, on the bench's database (already migrated and
 * seeded), in production settings and the same cookie secret as the shop served from this process.
 */
async function startWorkerShop(
  databaseUrl: string,
  dataDir: string,
  workers: number,
  env: Record<string, string>,
) {
  const port = await findFreePort();
  // Kept after the run, as the http bench keeps its shop's log: what the shop said about a failed row.
  const logFile = path.resolve("bench-results", `flash-sale-workers-${workers}.log`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  rmSync(logFile, { force: true });
  const shop = spawn(process.execPath, runServer, {
    // Its log goes to LOG_FILE; stdout carries only the file SMS provider's echo of every order's SMS
    // (each is also a file under DATA_DIR/sms), which would bury the bench's table.
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      LOG_FILE: logFile,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      ...GENEROUS_RATE_LIMITS,
      PUBLIC_URL: "http://localhost:3000",
      SHOP_WORKERS: String(workers),
      ...env,
    },
  });
  const lines = () =>
    (existsSync(logFile) ? readFileSync(logFile, "utf8") : "")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { pid: number; msg: string; workerPid?: number });
  const deadline = Date.now() + 120_000;
  while (lines().filter((line) => line.msg.startsWith("Shop ready")).length < workers) {
    if (shop.exitCode !== null || Date.now() > deadline)
      throw new Error(`the worker shop did not start: ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const servingPids = () =>
    workers === 1
      ? [shop.pid as number]
      : lines()
          .filter((line) => line.msg === "shop worker started")
          .map((line) => line.workerPid as number);
  return {
    url: `http://127.0.0.1:${port}`,
    /** Resident memory of each process, MB: the primary's (with several workers) first. */
    residentMb: () =>
      [...new Set([shop.pid as number, ...servingPids()])].map((pid) => {
        try {
          const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
          return Math.round(Number(kb) / 1024);
        } catch {
          return 0;
        }
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (shop.exitCode !== null) return resolve();
        shop.once("exit", () => resolve());
        shop.kill("SIGTERM");
      }),
  };
}

export default async function flashSaleBench() {
  const shopEnv = {
    SESSION_CACHE_SECONDS: String(SESSION_CACHE_SECONDS),
    // Every tab of the crowd comes from 127.0.0.1, which the shop would hold to a few streams.
    STREAMS_PER_CLIENT: String(Math.max(CROWD_TABS, HELD_TABS)),
  };
  const shop = await startBenchShop(shopEnv);
  const port = await findFreePort();
  const server = createServer(shop.listener()).listen(port, "127.0.0.1");
  const inProcessUrl = `http://127.0.0.1:${port}`;
  const workerShop = await startWorkerShop(shop.databaseUrl, shop.dataDir, WORKERS, shopEnv);
  // Every row but the held tabs goes to the shop in this process unless --on-workers says otherwise.
  const url = ALL_ON_WORKERS ? workerShop.url : inProcessUrl;
  const shopName = ALL_ON_WORKERS
    ? `the shop with SHOP_WORKERS=${WORKERS}`
    : "the shop served from the bench's process";
  const { app, db } = shop;
  const targets: [string, boolean, string][] = [];
  try {
    console.log(`\nMaking ${SHOPPERS} signed-in shoppers...`);
    const shoppers = await makeShoppers(app, db, SHOPPERS);
    // Each session read once from the database after the cache is trusted: its cookie then carries the copy.
    await new Promise((resolve) => setTimeout(resolve, (SESSION_CACHE_SECONDS + 3) * 1000));
    await refreshSessionCopies(url, shoppers);
    const [shopper] = shoppers as [(typeof shoppers)[number]];
    await putInCart(db, shopper.userId, [{ itemId: PRODUCT }, { itemId: "coconut-oil", quantity: 2 }]);

    const bareBytes = async (target: string, cookie?: string) => {
      const response = await fetch(`${url}${target}`, {
        headers: { ...(cookie ? { Cookie: cookie } : {}), "Accept-Encoding": "br" },
      });
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        type: response.headers.get("content-type") ?? "",
      };
    };
    const bareFor = async ({ body, type }: { body: Uint8Array; type: string }) => {
      const barePort = await findFreePort();
      const bare = createServer((_request, response) => {
        response.writeHead(200, { "Content-Type": type, "Content-Length": body.length });
        response.end(body);
      }).listen(barePort, "127.0.0.1");
      return {
        url: `http://127.0.0.1:${barePort}`,
        stop: () => new Promise<void>((resolve) => bare.close(() => resolve())),
      };
    };

    const rows: Row[] = [];
    const measured = async (name: string, target: string, headers: Record<string, string>) => {
      // A copy lives SESSION_CACHE_SECONDS: renewed before each row, as a browser's would be by its requests.
      if (headers.Cookie) {
        await refreshSessionCopies(url, [shopper]);
        headers.Cookie = shopper.cookie;
      }
      const result = await load(url, { kind: "get", path: target, headers });
      const bare = await bareFor(await bareBytes(target, headers.Cookie));
      const baseline = await load(bare.url, { kind: "get", path: "/" });
      await bare.stop();
      rows.push({ name, result, baseline: baseline.requestsPerSecond });
      // Said at once too: a later stage that fails (a machine out of files) leaves these figures behind.
      console.log(
        `  ${name}: ${result.requestsPerSecond.toFixed(0)}/s, p99 ${result.p99} ms (bare ${baseline.requestsPerSecond.toFixed(0)}/s)`,
      );
      return { result, ratio: result.requestsPerSecond / baseline.requestsPerSecond };
    };
    const page = `/product/${PRODUCT}`;
    const browser = { "Accept-Encoding": "gzip, deflate, br" };
    console.log(`\nRows on ${shopName}; held tabs on the shop with SHOP_WORKERS=${WORKERS}.`);

    if (runs("rows")) {
      const signedIn = { Cookie: shopper.cookie };
      const version = await measured("GET /api/cart/version signed in", "/api/cart/version", signedIn);
      const cart = await measured("GET /api/cart signed in (2 lines)", "/api/cart", signedIn);
      const session = await measured(
        "GET /api/auth/get-session signed in",
        "/api/auth/get-session",
        signedIn,
      );
      targets.push(
        ["cart version >= 0.25 of bare", version.ratio >= 0.25, version.ratio.toFixed(3)],
        ["cart read >= 0.25 of bare", cart.ratio >= 0.25, cart.ratio.toFixed(3)],
        ["session read >= 0.25 of bare", session.ratio >= 0.25, session.ratio.toFixed(3)],
      );
    }

    if (runs("crowd")) {
      const pageAlone = await measured(`GET ${page} (br), alone`, page, browser);
      await refreshSessionCopies(url, shoppers);
      // The crowd: CROWD_TABS tabs over every shopper's session, while carts change 20 times a second.
      const crowd = await openTabs(
        url,
        shoppers.map((each) => each.cookie),
        CROWD_TABS,
      );
      let changes = 0;
      const changer = setInterval(() => {
        const each = shoppers[changes++ % shoppers.length];
        if (!each) return;
        void Promise.resolve(
          app.request(`/api/cart/items`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Origin: ORIGIN, Cookie: each.cookie },
            body: JSON.stringify({ id: "coconut-oil", kind: "product" }),
          }),
        ).then((response) => response.arrayBuffer());
      }, 50);
      const pageCrowd = await measured(`GET ${page} (br), ${crowd.open} tabs following carts`, page, browser);
      clearInterval(changer);
      const heard = await crowd.close();
      console.log(
        `\nCrowd: ${crowd.open} tabs open (${crowd.failed} refused), ${changes} cart changes pushed as ${heard.events} messages.`,
      );
      targets.push([
        `product page p99 < 50 ms with ${CROWD_TABS} tabs`,
        pageCrowd.result.p99 < 50,
        `${pageCrowd.result.p99} ms (alone ${pageAlone.result.p99} ms)`,
      ]);
    }

    if (runs("held")) {
      // Open tabs held by the worker shop: as many as the crowd processes can open, each its first message.
      await refreshSessionCopies(workerShop.url, shoppers);
      const rssBefore = workerShop.residentMb();
      const heldStarted = performance.now();
      const held = await openTabs(
        workerShop.url,
        shoppers.map((each) => each.cookie),
        HELD_TABS,
      );
      const heldSeconds = (performance.now() - heldStarted) / 1000;
      const rssHeld = workerShop.residentMb();
      const heldProbe = await load(workerShop.url, { kind: "get", path: page, headers: browser });
      const heard = await held.close();
      // The same tabs held by as many bare node:http processes answering each with the same first message,
      // after the shop's are closed.
      const bareHeld = await bareStreams(await firstEvent(workerShop.url, shopper.cookie));
      const bareHeldStarted = performance.now();
      const heldOnBare = await openTabs(
        bareHeld.url,
        shoppers.map((each) => each.cookie),
        HELD_TABS,
      );
      const bareHeldSeconds = (performance.now() - bareHeldStarted) / 1000;
      await heldOnBare.close();
      await bareHeld.stop();
      console.log(
        `\nHeld (SHOP_WORKERS=${WORKERS}): ${held.open} tabs open (${held.failed} refused) in ${heldSeconds.toFixed(1)} s, ${heard.events} events; RSS MB per process (primary first) ${rssBefore.join(" + ")} -> ${rssHeld.join(" + ")}; product page meanwhile ${heldProbe.requestsPerSecond.toFixed(0)}/s, p99 ${heldProbe.p99} ms, ${heldProbe.errors}/${heldProbe.non2xx} errors/non-2xx. Bare (${WORKERS} processes): ${heldOnBare.open} open (${heldOnBare.failed} refused) in ${bareHeldSeconds.toFixed(1)} s.`,
      );
      targets.push([`${HELD_TABS} open tabs held`, held.open >= HELD_TABS, String(held.open)]);
    }

    if (runs("burst")) {
      // The burst: every shopper orders the one product at once; half of them can have it.
      await db.execute(sql`delete from cart_items`);
      await db.execute(sql`update products set stock = ${STOCK} where slug = ${PRODUCT}`);
      for (const each of shoppers) await putInCart(db, each.userId, [{ itemId: PRODUCT }]);
      // After the carts are filled, which takes longer than a short cookie lifetime on a busy machine.
      await refreshSessionCopies(url, shoppers);
      const burst = (await firstLine(
        child("crowd.ts", {
          kind: "burst",
          url,
          origin: ORIGIN,
          orders: shoppers.map(({ cookie, addressId }) => ({ cookie, addressId })),
        }),
      )) as { seconds: number; statuses: Record<string, number>; p50: number; p99: number; cpuMs: number };
      const [left] = (
        await db.execute<{ stock: number }>(sql`select stock from products where slug = ${PRODUCT}`)
      ).rows;
      const [orders] = (
        await db.execute<{ n: string }>(sql`select count(*) as n from order_lines where item_id = ${PRODUCT}`)
      ).rows;
      // The same burst on a bare node:http server answering each order with a placed order's bytes.
      const bareOrders = await bareFor({
        body: new TextEncoder().encode(JSON.stringify({ order: { number: "PN-2026-000001" } })),
        type: "application/json",
      });
      const bareBurst = (await firstLine(
        child("crowd.ts", {
          kind: "burst",
          url: bareOrders.url,
          origin: ORIGIN,
          orders: shoppers.map(({ cookie, addressId }) => ({ cookie, addressId })),
        }),
      )) as typeof burst;
      await bareOrders.stop();
      const placed = burst.statuses["201"] ?? 0;
      const soldOut = burst.statuses["409"] ?? 0;
      const fiveXx = Object.entries(burst.statuses)
        .filter(([status]) => status === "0" || status.startsWith("5"))
        .reduce((sum, [, count]) => sum + count, 0);
      const oversold = Math.max(0, Number(orders?.n ?? 0) - STOCK) + Math.max(0, -(left?.stock ?? 0));
      const ordersPerSecond = placed / burst.seconds;
      console.log(
        `\nBurst on ${shopName}: ${SHOPPERS} orders at once on ${STOCK} in stock: ${placed} placed, ${soldOut} sold out, ${fiveXx} 5xx/failed, oversold ${oversold}, stock left ${left?.stock}; ${burst.seconds.toFixed(2)} s, ${ordersPerSecond.toFixed(0)} orders/s, p50 ${burst.p50} ms, p99 ${burst.p99} ms; the crowd's client ${burst.cpuMs} ms CPU; statuses ${JSON.stringify(burst.statuses)}`,
      );
      console.log(
        `Bare:  the same ${SHOPPERS} at once: ${bareBurst.seconds.toFixed(2)} s (${(SHOPPERS / bareBurst.seconds).toFixed(0)} answers/s; the shop ${(SHOPPERS / burst.seconds).toFixed(0)}, ratio ${(bareBurst.seconds / burst.seconds).toFixed(3)}), p50 ${bareBurst.p50} ms, p99 ${bareBurst.p99} ms; the crowd's client ${bareBurst.cpuMs} ms CPU; statuses ${JSON.stringify(bareBurst.statuses)}`,
      );
      targets.push(
        [
          "burst: exactly the stock placed, rest sold out, no 5xx",
          placed === STOCK && soldOut === SHOPPERS - STOCK && fiveXx === 0 && oversold === 0,
          `${placed}/${soldOut}/${fiveXx}`,
        ],
        ["burst: >= 300 orders/s", ordersPerSecond >= 300, ordersPerSecond.toFixed(0)],
        ["burst: p99 < 1 s", burst.p99 < 1000, `${burst.p99} ms`],
      );
    }

    if (rows.length > 0) {
      console.log(
        `\n${"target".padEnd(58)}${"req/s".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"bare".padStart(8)}${"ratio".padStart(7)}  errors/non-2xx`,
      );
    }
    for (const { name, result, baseline } of rows) {
      console.log(
        `${name.padEnd(58)}${result.requestsPerSecond.toFixed(0).padStart(8)}${String(result.p50).padStart(8)}${String(result.p99).padStart(8)}${baseline.toFixed(0).padStart(8)}${(result.requestsPerSecond / baseline).toFixed(3).padStart(7)}  ${result.errors}/${result.non2xx}`,
      );
    }
    console.log("\nTargets:");
    for (const [name, met, figure] of targets)
      console.log(`  ${met ? "met    " : "NOT met"}  ${name}: ${figure}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await workerShop.stop();
    for (const file of planFiles) rmSync(file, { force: true });
    await shop.stop();
  }
}
