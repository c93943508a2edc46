/**
 * The load generator of bench/http.bench.ts, run as a process of its own so it never shares an event loop
 * with the server it measures: `node --import tsx bench/load.ts '<json>'`. Warms up, then measures at a
 * fixed number of connections (optionally at a fixed overall rate) and prints one JSON line.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import autocannon from "autocannon";

export type Account = { cookie: string; addressId?: string };

export type LoadPlan = {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Requests per second over all connections; unset = as fast as the server answers. */
  overallRate?: number;
  /** autocannon even for a plain GET: a baseline for rows autocannon measures. */
  autocannon?: boolean;
  scenario:
    | { kind: "get"; path: string; headers?: Record<string, string> }
    | { kind: "cart-write"; accounts: Account[]; slugs: string[]; origin: string }
    | { kind: "order"; accounts: Account[]; slugs: string[]; origin: string };
};

export type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Completed scenarios per second (an order is two requests: fill the cart, place the order). */
  operationsPerSecond: number;
  /** What made the load: wrk for plain GETs when installed, autocannon otherwise. */
  tool: "wrk" | "autocannon";
};

const WRK = "/usr/bin/wrk";

type Request = autocannon.Request;

function requestsFor(plan: LoadPlan): { requests: Request[]; perOperation: number } {
  const { scenario } = plan;
  if (scenario.kind === "get") {
    return { requests: [{ method: "GET", path: scenario.path, headers: scenario.headers }], perOperation: 1 };
  }
  const json = (account: Account) => ({
    "Content-Type": "application/json",
    Origin: scenario.origin,
    Cookie: account.cookie,
  });
  if (scenario.kind === "cart-write") {
    let next = 0;
    return {
      perOperation: 1,
      requests: [
        {
          method: "PUT",
          setupRequest: (request) => {
            const index = next++;
            const account = scenario.accounts[index % scenario.accounts.length] as Account;
            return {
              ...request,
              path: `/api/cart/items/${scenario.slugs[index % scenario.slugs.length]}`,
              headers: json(account),
              body: JSON.stringify({ quantity: (index % 9) + 1 }),
            };
          },
        },
      ],
    };
  }
  // Each connection takes an account nobody else is using for one cart-and-order round, then gives it back.
  const free = [...scenario.accounts];
  let next = 0;
  return {
    perOperation: 2,
    requests: [
      {
        method: "POST",
        path: "/api/cart/items",
        setupRequest: (request, context) => {
          const account = free.shift() as Account;
          (context as { account?: Account }).account = account;
          const slug = scenario.slugs[next++ % scenario.slugs.length];
          return {
            ...request,
            headers: json(account),
            body: JSON.stringify({ id: slug, kind: "product" }),
          };
        },
      },
      {
        method: "POST",
        path: "/api/orders",
        setupRequest: (request, context) => {
          const account = (context as { account: Account }).account;
          return {
            ...request,
            headers: { ...json(account), "Idempotency-Key": randomUUID() },
            body: JSON.stringify({ addressId: account.addressId, paymentMethod: "cod" }),
          };
        },
        onResponse: (_status, _body, context) => {
          free.push((context as { account: Account }).account);
        },
      },
    ],
  };
}

function run(plan: LoadPlan, seconds: number) {
  const { requests, perOperation } = requestsFor(plan);
  return new Promise<LoadResult>((resolve, reject) => {
    autocannon(
      {
        url: plan.url,
        connections: plan.connections,
        duration: seconds,
        overallRate: plan.overallRate,
        requests,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.total / (result.duration || seconds),
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          operationsPerSecond: result.requests.total / perOperation / (result.duration || seconds),
          tool: "autocannon",
        });
      },
    );
  });
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** A latency wrk prints ("850.12us", "2.93ms", "1.02s") in milliseconds. */
function milliseconds(text: string | undefined): number {
  const [, value = "NaN", unit = "ms"] = text?.match(/^([\d.]+)(us|ms|s|m)$/) ?? [];
  return Math.round(Number(value) * (MS_PER_UNIT[unit] ?? Number.NaN) * 10) / 10;
}

/**
 * wrk for a plain GET at full speed: written in C, it reads an answer without decoding it, where autocannon
 * turns every body into a JavaScript string, which for compressed (binary) bodies costs more than the server
 * does to send them and so measured autocannon rather than the server. A fixed rate and the scenarios with
 * a body per request stay on autocannon.
 */
async function runWrk(plan: LoadPlan & { scenario: { kind: "get" } }, seconds: number): Promise<LoadResult> {
  const headers = Object.entries(plan.scenario.headers ?? {}).flatMap(([name, value]) => [
    "-H",
    `${name}: ${value}`,
  ]);
  const { stdout } = await promisify(execFile)(WRK, [
    "-t1",
    `-c${plan.connections}`,
    `-d${seconds}s`,
    "--latency",
    ...headers,
    `${plan.url}${plan.scenario.path}`,
  ]);
  const requestsPerSecond = Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN);
  const socketErrors = stdout.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requestsPerSecond,
    p50: milliseconds(stdout.match(/\s50%\s+(\S+)/)?.[1]),
    p99: milliseconds(stdout.match(/\s99%\s+(\S+)/)?.[1]),
    non2xx: Number(stdout.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    operationsPerSecond: requestsPerSecond,
    tool: "wrk",
  };
}

const plan = JSON.parse(process.argv[2] ?? "{}") as LoadPlan;
const { scenario } = plan;
const measure =
  scenario.kind === "get" && plan.overallRate === undefined && !plan.autocannon && existsSync(WRK)
    ? (seconds: number) => runWrk({ ...plan, scenario }, seconds)
    : (seconds: number) => run(plan, seconds);
await measure(plan.warmupSeconds);
process.stdout.write(`${JSON.stringify(await measure(plan.seconds))}\n`);
