import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createShop } from "../server/app.ts";
import { createDb, migrateDatabase } from "../server/db/client.ts";
import { startEmbeddedPostgres } from "../server/db/embedded.ts";
import { seedCatalogue } from "../server/db/seed/seed.ts";
import { createDeps } from "../server/deps.ts";
import { parseEnv } from "../server/env.ts";
import { GENEROUS_RATE_LIMITS, TEST_AUTH_SECRET } from "../tests/database.ts";
import type { LoadPlan, LoadResult } from "./load.ts";

/**
 * A whole shop on an embedded PostgreSQL, called in-process through app.request(): a throwaway one, or the
 * one in `keptDir` (created on first use), which outlives the run so a big generated shop is filled once.
 */
export async function startBenchShop(envOverrides: Record<string, string> = {}, keptDir?: string) {
  const dataDir = keptDir ?? (await mkdtemp(path.join(tmpdir(), "shop-bench-")));
  const postgres = await startEmbeddedPostgres(dataDir);
  // Production settings (rate limits, secure defaults), as the shop runs for shoppers.
  const env = parseEnv({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    // The test accounts helpers confirm sign-ups with this secret; the benchmarks sign up many accounts.
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    ...GENEROUS_RATE_LIMITS,
    PUBLIC_URL: "http://localhost:3000",
    ...envOverrides,
  });
  const { db, pool } = createDb(postgres.url, { max: 20, idleTimeoutMs: env.DB_IDLE_TIMEOUT_MS });
  await migrateDatabase(db);
  await seedCatalogue(db);
  const deps = createDeps({ db, env });
  const shop = createShop(deps);
  return {
    app: shop.app,
    listener: shop.listener,
    deps,
    db,
    databaseUrl: postgres.url,
    dataDir,
    async stop() {
      await deps.catalogue.stop();
      await deps.live.stop();
      await pool.end();
      await postgres.stop();
      if (!keptDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Measurement = { name: string; perSecond: number };

/**
 * Runs `operation` with `concurrency` callers for `seconds` and reports completed operations per second.
 * Figures on these shared machines are only meaningful as ratios against a baseline measured in the same run.
 */
export async function measure(
  name: string,
  operation: (index: number) => Promise<unknown>,
  { seconds = 2, concurrency = 1 } = {},
): Promise<Measurement> {
  for (let warm = 0; warm < 20; warm++) await operation(warm);
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) await operation(done++);
    }),
  );
  return { name, perSecond: done / ((performance.now() - started) / 1000) };
}

export function report(title: string, baseline: Measurement, results: Measurement[]) {
  console.log(`\n${title}`);
  console.log(`  baseline ${baseline.name}: ${baseline.perSecond.toFixed(0)}/s (1.00)`);
  for (const result of results) {
    const ratio = result.perSecond / baseline.perSecond;
    console.log(`  ${result.name}: ${result.perSecond.toFixed(0)}/s (${ratio.toFixed(2)} of baseline)`);
  }
}

/**
 * Runs bench/load.ts with `plan` in a process of its own (its load generator must not share the shop's event loop)
 * and answers what it measured.
 */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "load.ts"), JSON.stringify(plan)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim()) as LoadResult)
        : reject(new Error(`load exited ${code}`)),
    );
  });
}

/**
 * Gives each shopper a fresh session copy, as a browser gets one when its copy has run out: the session is read
 * once through the shop without the old copy, and the copy the answer sets is kept in the shopper's cookie (the
 * last one set counts). A fresh copy outlives the row that follows, which a load tool, keeping the cookie it was
 * given, needs: a copy running out halfway would send every later request of the row to the database.
 */
export async function refreshSessionCopies(url: string, shoppers: { cookie: string }[]) {
  for (const each of shoppers) {
    const withoutCopy = each.cookie
      .split("; ")
      .filter((pair) => !pair.startsWith("better-auth.session_data="))
      .join("; ");
    const response = await fetch(`${url}/api/cart/version`, { headers: { Cookie: withoutCopy } });
    const fresh = response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0] ?? "")
      .filter((pair) => pair.startsWith("better-auth.session_data=") && !pair.endsWith("="))
      .slice(-1);
    if (fresh.length > 0) each.cookie = [withoutCopy, ...fresh].join("; ");
    await response.arrayBuffer();
  }
}
