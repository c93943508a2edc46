import { createServer } from "node:http";
import { sql } from "drizzle-orm";
import { findFreePort } from "../server/db/embedded.ts";
import type { LoadPlan, LoadResult } from "./load.ts";
import { runLoad, startBenchShop } from "./support.ts";

/**
 * What counting the funnel costs a shopper's page (docs/decisions/090): the same product reads by the same
 * browser, counted and with do-not-track (which the shop does not count), in alternating rounds so the machine's
 * drift falls on both alike. Prints each round and the median ratio, counted over not counted.
 */
const ROUNDS = Number(process.env.FUNNEL_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BROWSER =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

function load(url: string, target: string, headers: Record<string, string>): Promise<LoadResult> {
  const plan: LoadPlan = {
    url,
    connections: CONNECTIONS,
    warmupSeconds: 1,
    seconds: SECONDS,
    scenario: { kind: "get", path: target, headers },
  };
  return runLoad(plan);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export default async function funnelBench() {
  const shop = await startBenchShop();
  const port = await findFreePort();
  const server = createServer(shop.listener()).listen(port, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  try {
    const targets: { name: string; path: string; headers: Record<string, string> }[] = [
      { name: "GET /api/products/:slug", path: "/api/products/face-glow-oil", headers: {} },
      {
        name: "GET /product/:slug (server HTML, br)",
        path: "/product/face-glow-oil",
        headers: { "Accept-Encoding": "gzip, deflate, br" },
      },
    ];
    console.log(
      `\nThe same reads counted for the funnel and not (DNT: 1), ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} connections`,
    );
    for (const target of targets) {
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const counted = await load(url, target.path, { ...target.headers, "User-Agent": BROWSER });
        const notCounted = await load(url, target.path, {
          ...target.headers,
          "User-Agent": BROWSER,
          DNT: "1",
        });
        const ratio = counted.requestsPerSecond / notCounted.requestsPerSecond;
        ratios.push(ratio);
        console.log(
          `${target.name.padEnd(40)} round ${round + 1}: counted ${counted.requestsPerSecond.toFixed(0)}/s, not counted ${notCounted.requestsPerSecond.toFixed(0)}/s, ratio ${ratio.toFixed(2)}`,
        );
      }
      console.log(
        `${target.name.padEnd(40)} median ratio, counted / not counted: ${median(ratios).toFixed(2)}`,
      );
    }
    await shop.deps.funnel.flush();
    const rows = await shop.db.execute<{ visits: number }>(
      sql`select count(*)::int as visits from funnel_visits`,
    );
    console.log(`funnel_visits rows written: ${rows.rows[0]?.visits} (one visitor, one step)`);
  } finally {
    server.close();
    await shop.deps.funnel.stop();
    await shop.stop();
  }
}
