import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { distDir } from "../server/app.ts";
import { findFreePort } from "../server/db/embedded.ts";
import { signUpViaApp } from "../tests/accounts.ts";
import { saveAddress } from "../tests/orders.ts";
import type { Account, LoadPlan, LoadResult } from "./load.ts";
import { refreshSessionCopies, runLoad, startBenchShop } from "./support.ts";

/**
 * The shop over real HTTP (its own node handler on 127.0.0.1) against a bare node:http server answering the
 * exact bytes of GET /api/products, and Debian's nginx serving them as a file when it is installed
 * (bench/setup.sh installs both it and wrk). The load comes from a process of its own (bench/load.ts: wrk
 * for plain GETs, autocannon for a fixed rate and for cart and order writes), at CONNECTIONS connections,
 * after a warm-up. On a shared machine the absolute figures are noise; each target's ratio is to a
 * baseline measured next to it by the same load generator, which is what compares.
 */
/** What Chrome on Android sends: the shopper most of the shop's visitors are. */
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ORIGIN = "http://localhost:3000";
const NGINX = "/usr/sbin/nginx";

type Row = { name: string; result: LoadResult; baseline: number; unit?: string };

function load(url: string, scenario: LoadPlan["scenario"], options: Partial<LoadPlan> = {}) {
  const plan: LoadPlan = {
    url,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    scenario,
    ...options,
  };
  // The in-process shop logs every order's e-mail; the table is what this run is for.
  const log = console.log;
  console.log = () => {};
  return runLoad(plan).finally(() => {
    console.log = log;
  });
}

/** nginx with one worker (the shop is one Node process), serving `body` as a file, or why it cannot. */
async function startNginx(body: Uint8Array): Promise<{ url: string; stop: () => Promise<void> } | string> {
  if (!existsSync(NGINX)) return "nginx is not installed (bash bench/setup.sh installs Debian's nginx-light)";
  const folder = await mkdtemp(path.join(tmpdir(), "bench-nginx-"));
  const port = await findFreePort();
  await writeFile(path.join(folder, "products.json"), body);
  await writeFile(
    path.join(folder, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${folder};
  proxy_temp_path ${folder};
  fastcgi_temp_path ${folder};
  uwsgi_temp_path ${folder};
  scgi_temp_path ${folder};
  server {
    listen 127.0.0.1:${port};
    root ${folder};
    location / { default_type application/json; }
  }
}
`,
  );
  const child = spawn(NGINX, ["-c", path.join(folder, "nginx.conf"), "-p", folder], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      if ((await fetch(`${url}/products.json`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      child.kill("SIGQUIT");
      await new Promise((resolve) => child.once("exit", resolve));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

function printTable(rows: Row[]) {
  console.log(
    `\n${pad("target", 58)}${padLeft("req/s", 8)}${padLeft("p50 ms", 8)}${padLeft("p99 ms", 8)}${padLeft("baseline", 10)}${padLeft("ratio", 7)}  ${pad("load", 11)}errors/non-2xx`,
  );
  for (const { name, result, baseline, unit } of rows) {
    const ratio = result.requestsPerSecond / baseline;
    const extra = unit ? `  (${result.operationsPerSecond.toFixed(0)} ${unit})` : "";
    console.log(
      `${pad(name, 58)}${padLeft(result.requestsPerSecond.toFixed(0), 8)}${padLeft(String(result.p50), 8)}${padLeft(String(result.p99), 8)}${padLeft(baseline.toFixed(0), 10)}${padLeft(ratio.toFixed(2), 7)}  ${pad(result.tool, 11)}${result.errors}/${result.non2xx}${extra}`,
    );
  }
}

export default async function httpBench() {
  const shop = await startBenchShop();
  const port = await findFreePort();
  // The shop's own node handler, as server/main.ts serves it.
  const server = createServer(shop.listener()).listen(port, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  const stops: (() => Promise<void>)[] = [];
  try {
    // Orders take stock: enough for every run, spread over every product so no row lock is everyone's.
    await shop.db.execute(sql`update products set stock = 1000000; update combos set stock = 1000000`);
    const slugs = (await shop.db.query.products.findMany({ columns: { slug: true } })).map((row) => row.slug);
    const accounts: Account[] = [];
    for (let index = 0; index < CONNECTIONS * 2; index++) {
      const account = await signUpViaApp(shop.app, `bench-http-${index}@example.in`);
      accounts.push({ cookie: account.cookie, addressId: await saveAddress(shop.app, account.cookie) });
    }
    // Half the accounts change a quantity in their carts, the other half place orders.
    const cartAccounts = accounts.slice(0, CONNECTIONS);
    const orderAccounts = accounts.slice(CONNECTIONS);
    for (const account of cartAccounts) {
      await fetch(`${url}/api/cart/items`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN, Cookie: account.cookie },
        body: JSON.stringify({ id: slugs[0], kind: "product" }),
      });
    }
    const [shopper] = cartAccounts as [Account];

    const products = new Uint8Array(await (await fetch(`${url}/api/products`)).arrayBuffer());
    const baselinePort = await findFreePort();
    const bare = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json", "Content-Length": products.length });
      response.end(products);
    }).listen(baselinePort, "127.0.0.1");
    stops.push(() => new Promise((resolve) => bare.close(() => resolve())));

    const productPath = `/product/${slugs.includes("face-glow-oil") ? "face-glow-oil" : slugs[0]}`;
    const scripts = existsSync(path.join(distDir, "assets"))
      ? readdirSync(path.join(distDir, "assets")).filter((file) => /^index-[\w-]+\.js$/.test(file))
      : [];
    const script = scripts[0] ? `/assets/${scripts[0]}` : undefined;

    console.log(
      `\nHTTP on 127.0.0.1, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${SECONDS} s each; load from ${existsSync("/usr/bin/wrk") ? "wrk (plain GETs) and autocannon" : "autocannon (wrk is not installed: bash bench/setup.sh)"} in a process of its own.`,
    );
    const baselineLoad = (tool?: LoadResult["tool"]) =>
      load(
        `http://127.0.0.1:${baselinePort}`,
        { kind: "get", path: "/" },
        { autocannon: tool === "autocannon" },
      );
    const rows: Row[] = [];
    // The machine's load drifts by several times within a run, so each target is measured right next to a
    // baseline of its own, made by the same load generator, and its ratio is to that one.
    const measured = async (name: string, run: () => Promise<LoadResult>, unit?: string) => {
      const result = await run();
      const baseline = await baselineLoad(result.tool);
      rows.push({ name, result, baseline: baseline.requestsPerSecond, unit });
      return result;
    };
    const first = await baselineLoad();
    rows.push({
      name: "baseline: node:http, the bytes of /api/products",
      result: first,
      baseline: first.requestsPerSecond,
    });

    const nginx = await startNginx(products);
    if (typeof nginx === "string") console.log(`nginx: ${nginx}`);
    else {
      stops.push(nginx.stop);
      await measured("nginx (Debian, 1 worker), the same bytes as a file", () =>
        load(nginx.url, { kind: "get", path: "/products.json" }),
      );
    }

    const get = (name: string, target: string, headers?: Record<string, string>) =>
      measured(name, () => load(url, { kind: "get", path: target, headers }));
    // A browser's User-Agent on the shopper's reads, so a product view is counted for the funnel as a
    // visitor's would be (docs/decisions/090): a client without one is not counted, and would skip that work.
    const browser = { "User-Agent": BROWSER_USER_AGENT };
    const productsResult = await get("GET /api/products", "/api/products");
    await get("GET /api/products/:slug", `/api/products/${productPath.split("/").pop()}`, browser);
    // Pages as every browser and crawler asks for them: compressed (a product page is some 80 kB as it is,
    // 15 kB in brotli). The uncompressed row shows what a client that asks for no encoding costs.
    const browserEncodings = { "Accept-Encoding": "gzip, deflate, br", ...browser };
    await get("GET / (server HTML, br)", "/", browserEncodings);
    const productPage = await get(`GET ${productPath} (server HTML, br)`, productPath, browserEncodings);
    await get(`GET ${productPath} (server HTML, no compression)`, productPath, browser);
    const asset = script
      ? await get("GET hashed JS asset, Accept-Encoding: br", script, { "Accept-Encoding": "br" })
      : undefined;
    if (!script) console.log("No built JavaScript in dist/assets: run npm run build first.");
    // A session copy lives SESSION_CACHE_SECONDS (60 s), less than the rows before these take, and a load tool
    // keeps the cookie it was given: each signed-in row starts with copies as fresh as a browser's, or every
    // request of it would go through Better Auth to the database.
    await refreshSessionCopies(url, [shopper]);
    const signedIn = await get("GET /api/cart (signed in)", "/api/cart", { Cookie: shopper.cookie });
    await refreshSessionCopies(url, cartAccounts);
    await measured("PUT /api/cart/items/:slug (cart write)", () =>
      load(url, { kind: "cart-write", accounts: cartAccounts, slugs: [slugs[0] ?? ""], origin: ORIGIN }),
    );
    await refreshSessionCopies(url, orderAccounts);
    await measured(
      "order placement (cart add + POST /api/orders)",
      () => load(url, { kind: "order", accounts: orderAccounts, slugs, origin: ORIGIN }),
      "orders/s",
    );
    const halfRate = Math.max(1, Math.round(productsResult.requestsPerSecond / 2));
    const atHalf = await measured(`GET /api/products at ${halfRate}/s (half capacity)`, () =>
      load(url, { kind: "get", path: "/api/products" }, { overallRate: halfRate }),
    );

    printTable(rows);
    const ratio = (result: LoadResult | undefined) => {
      const row = rows.find((candidate) => candidate.result === result);
      return row ? row.result.requestsPerSecond / row.baseline : 0;
    };
    const targets: [string, boolean, string][] = [
      [
        "GET /api/products >= 0.5 of baseline",
        ratio(productsResult) >= 0.5,
        ratio(productsResult).toFixed(2),
      ],
      ["hashed asset with br >= 0.5 of baseline", ratio(asset) >= 0.5, ratio(asset).toFixed(2)],
      ["product page HTML (br) >= 0.2 of baseline", ratio(productPage) >= 0.2, ratio(productPage).toFixed(2)],
      ["p99 < 25 ms at half capacity (/api/products)", atHalf.p99 < 25, `${atHalf.p99} ms`],
      ["GET /api/cart signed in >= 0.25 of baseline", ratio(signedIn) >= 0.25, ratio(signedIn).toFixed(2)],
    ];
    console.log("\nTargets:");
    for (const [name, met, figure] of targets)
      console.log(`  ${met ? "met    " : "NOT met"}  ${name}: ${figure}`);
    if (process.env.BENCH_PAGES !== "0") {
      const { browserChecks } = await import("./browser-checks.ts");
      await browserChecks(url, productPath, "/combo/skincare-combo");
    }
  } finally {
    server.close();
    for (const stop of stops) await stop();
    await shop.stop();
  }
}
