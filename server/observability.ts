import { randomUUID, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Pool } from "pg";
import client from "prom-client";
import { fromTrustedProxy } from "./auth/client-address.ts";
import { clusterMetrics, isClusterWorker } from "./cluster-metrics.ts";
import type { Env } from "./env.ts";
import { httpError, notFound, routeOf } from "./errors.ts";
import { accessLog, log, serializeError } from "./log.ts";

// What a proxy may hand on as a request id: short, printable, no room for a log-injection payload.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The Prometheus registry of one app. One per app, not prom-client's global one: tests build many
 * apps in one process, and each counts its own requests.
 */
export function createMetrics(options: {
  pool?: Pool;
  processMetrics: boolean;
  /** The session memo's counts (server/auth/session-memo.ts). */
  sessions?: { counts: { known: number; checked: number } };
}) {
  const registry = new client.Registry();
  if (options.processMetrics) client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: "shop_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: "shop_http_request_duration_seconds",
    help: "Time to answer HTTP requests, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const ordersPlaced = new client.Counter({
    name: "shop_orders_placed_total",
    help: "Orders placed (replays of an Idempotency-Key not counted)",
    registers: [registry],
  });
  const { pool, sessions } = options;
  if (sessions) {
    new client.Counter({
      name: "shop_signed_in_sessions_total",
      help: "Signed-in requests by how their session was read: known from a copy remembered (memo) or checked by Better Auth",
      labelNames: ["by"],
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ by: "memo" }, sessions.counts.known);
        this.inc({ by: "better_auth" }, sessions.counts.checked);
      },
    });
  }
  if (pool) {
    const gauge = (name: string, help: string, read: () => number) =>
      new client.Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    gauge("shop_db_pool_connections", "Connections the pool holds to PostgreSQL", () => pool.totalCount);
    gauge("shop_db_pool_idle", "Pool connections not in use", () => pool.idleCount);
    gauge("shop_db_pool_waiting", "Queries waiting for a pool connection", () => pool.waitingCount);
    new client.Gauge({
      name: "shop_jobs",
      help: "Background jobs (mails, scheduled runs) by status: queued, running, failed for good",
      labelNames: ["status"],
      registers: [registry],
      // The same table read by every worker: summing their figures would count each job once per worker.
      aggregator: "first",
      async collect() {
        // Read from the table on scrape: the queue is shared by every instance. With the database away
        // the last figures stand rather than failing the whole scrape.
        try {
          const { rows } = await pool.query<{ status: string; count: number }>(
            "select status, count(*)::int as count from jobs where status in ('queued', 'running', 'failed') group by status",
          );
          for (const status of ["queued", "running", "failed"]) {
            this.set({ status }, rows.find((row) => row.status === status)?.count ?? 0);
          }
        } catch {}
      },
    });
  }
  return { registry, requests, duration, ordersPlaced };
}

/** The request's id: the one a trusted proxy handed on (X-Request-Id), else a new one. */
export function requestIdFor(offered: string | undefined, fromTrustedProxy: () => boolean): string {
  return offered && REQUEST_ID.test(offered) && fromTrustedProxy() ? offered : randomUUID();
}

type Answered = { method: string; route: string; status: number };
type Labels = { method: string; route: string; status: string };

const labelsOf = (answered: Answered): Labels => ({
  method: answered.method,
  route: answered.route,
  status: String(answered.status),
});

/**
 * An answer given the same way again and again (a kept answer replayed): its metric labels and its access
 * line's fixed fields made once, as a pino child, so each replay writes only its duration and id.
 */
export type RepeatedAnswer = Answered & { labels: Labels; line: typeof accessLog };

export function repeatedAnswer(answered: Answered): RepeatedAnswer {
  return { ...answered, labels: labelsOf(answered), line: accessLog.child(answered) };
}

/** Counts an answered request and writes its access line, whichever way it was answered. */
export function recordRequest(
  metrics: Metrics,
  answered: Answered | RepeatedAnswer,
  started: number,
  requestId: string,
) {
  const seconds = (performance.now() - started) / 1000;
  const repeated = "line" in answered ? answered : undefined;
  const labels = repeated?.labels ?? labelsOf(answered);
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, seconds);
  if (answered.method === "POST" && answered.route === "/api/orders" && answered.status === 201) {
    metrics.ordersPlaced.inc();
  }
  const ms = Math.round(seconds * 1000);
  if (repeated) repeated.line.info({ ms, requestId }, "request");
  else {
    const { method, route, status } = answered;
    accessLog.info({ method, route, status, ms, requestId }, "request");
  }
}

/**
 * Gives every request an id (the trusted proxy's X-Request-Id, else a new one), returns it, and writes
 * one access line per request: method, route pattern, status, duration, id. Never the path or query
 * (tokens, order numbers, e-mail addresses), nor any header.
 */
export function observeRequests(env: Env, metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.header("x-request-id"), () => fromTrustedProxy(c, env));
    c.set("requestId" as never, requestId as never);
    c.header("X-Request-Id", requestId);
    await next();
    // A handler that returns its own Response (Better Auth's) drops the headers set before it: given again.
    if (!c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", requestId);
    recordRequest(
      metrics,
      { method: c.req.method, route: routeOf(c), status: c.res.status },
      started,
      requestId,
    );
  };
}

/** GET /metrics for Prometheus, behind METRICS_TOKEN as a bearer token; without the token set, a 404. */
export function metricsHandler(env: Env, metrics: Metrics) {
  return async (c: Context) => {
    if (!env.METRICS_TOKEN) throw notFound(`There is nothing at ${c.req.method} /metrics.`);
    const given = Buffer.from(c.req.header("authorization") ?? "");
    const expected = Buffer.from(`Bearer ${env.METRICS_TOKEN}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return c.json({ error: { code: "unauthenticated", message: "A metrics token is required." } }, 401);
    }
    c.header("Cache-Control", "no-store");
    let text: string;
    if (isClusterWorker()) {
      try {
        text = await clusterMetrics();
      } catch (error) {
        // A partial sum would read as a drop in every counter; Prometheus keeps the last scrape instead.
        log.warn({ err: serializeError(error) }, "metrics of the shop's workers could not be gathered");
        throw httpError(503, "unavailable", "The metrics of every worker could not be gathered. Try again.");
      }
    } else text = await metrics.registry.metrics();
    return c.body(text, 200, { "Content-Type": metrics.registry.contentType });
  };
}
