import cluster from "node:cluster";
import { createServer } from "node:http";
import { scheduleFunnelRollUp } from "./analytics/funnel.ts";
import { createShop } from "./app.ts";
import { scheduleCartReminderSweep } from "./cart-reminders/left-carts.ts";
import { offerMetricsToPrimary } from "./cluster-metrics.ts";
import { scheduleConfirmationLapses } from "./cod-orders/confirmation.ts";
import { createDb } from "./db/client.ts";
import { loadPinDirectory } from "./delivery/pin-directory.ts";
import { createDeps } from "./deps.ts";
import type { Env } from "./env.ts";
import { jobHandlers } from "./job-handlers.ts";
import { startJobWorker } from "./jobs/job-queue.ts";
import { createLifecycle } from "./lifecycle.ts";
import { log, serializeError } from "./log.ts";
import { scheduleUnpaidOrderExpiry } from "./orders/order-status.ts";
import { scheduleUploadSweep } from "./products/product-images.ts";
import { scheduleShipmentPolling } from "./shipping/shipments.ts";

/**
 * One shop process serving PORT on a migrated, seeded database: the whole shop when it runs alone, one worker
 * of several under node:cluster (server/cluster.ts). SIGTERM/SIGINT drain it, stop its background work, then
 * run `stopAlso` (the embedded database of a shop that runs alone) and end the process.
 */
export async function serve(
  env: Env,
  databaseUrl: string,
  { database, stopAlso }: { database: string; stopAlso?: () => Promise<void> },
) {
  const { pool, lifecycle, listener, metrics } = startShopWork(env, databaseUrl);
  if (cluster.isWorker) offerMetricsToPrimary(metrics.registry);

  // Read once before serving rather than on a shopper's first PIN look-up (a second or more and some 90 MB
  // for a moment on a small machine), so an instance that answers is done with it.
  await loadPinDirectory().catch((error: unknown) =>
    log.error({ err: serializeError(error) }, "the PIN code directory could not be read"),
  );

  const server = createServer(listener());
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    // The address shoppers are sent to (PUBLIC_URL), not a guess: a shop told to live at 127.0.0.1 or
    // behind a proxy printed "localhost". Only PORT=0 without a PUBLIC_URL leaves the default unknowable.
    const shownUrl = env.PUBLIC_URL === "http://localhost:0" ? `http://localhost:${port}` : env.PUBLIC_URL;
    log.info({ port, database }, `Shop ready on ${shownUrl} (${database})`);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, "shutting down");
    await lifecycle.shutdown({
      server,
      graceMs: env.SHUTDOWN_GRACE_MS,
      finally: [() => pool.end(), async () => stopAlso?.()],
    });
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/**
 * The shop's request listener on a pool of its own, with its background work started (the job worker, the
 * scheduled sweeps, the listeners) and registered on `lifecycle` to be stopped after the last request. What
 * a shop process serves, and what a test serves from its own process (tests/in-process-shop.ts).
 */
export function startShopWork(env: Env, databaseUrl: string) {
  const { db, pool } = createDb(databaseUrl, {
    max: env.DB_POOL_MAX,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.DB_IDLE_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  });
  const lifecycle = createLifecycle();
  const deps = createDeps({ db, env });
  const { listener, metrics } = createShop(deps, { lifecycle });
  // The session-and-cart listener starts now rather than at the first signed-in request: session copies are
  // trusted only one cookie lifetime after it listens (decision 069), and a worker started or replaced now
  // should be past that by the time shoppers reach it.
  deps.live.listening();

  lifecycle.onStop(
    "job-worker",
    startJobWorker({
      db,
      signal: deps.jobs,
      handlers: jobHandlers(deps),
      pollMs: env.JOB_POLL_MS,
      retryBaseMs: env.JOB_RETRY_BASE_MS,
    }),
  );
  lifecycle.onStop("unpaid-order-expiry", scheduleUnpaidOrderExpiry(deps));
  lifecycle.onStop("cod-confirmation-lapses", scheduleConfirmationLapses(deps));
  lifecycle.onStop("shipment-polling", scheduleShipmentPolling(deps));
  lifecycle.onStop("cart-reminder-sweep", scheduleCartReminderSweep(deps));
  lifecycle.onStop("upload-sweep", scheduleUploadSweep(db));
  lifecycle.onStop("funnel-roll-up", scheduleFunnelRollUp(db));
  // What the funnel holds in memory is written before the pool closes.
  lifecycle.onStop("funnel-counts", () => deps.funnel.stop());
  lifecycle.onStop("catalogue-listener", () => deps.catalogue.stop());
  lifecycle.onStop("session-and-cart-listener", () => deps.live.stop());
  return { pool, deps, lifecycle, listener, metrics };
}
