import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { createShop } from "./app.ts";
import { scheduleConfirmationLapses } from "./cod/confirmation.ts";
import { createDb, migrateDatabase, withStartupLock } from "./db/client.ts";
import { releaseSignalHooks, startEmbeddedPostgres } from "./db/embedded.ts";
import { seedCatalogue } from "./db/seed/seed.ts";
import { loadPinDirectory } from "./delivery/pin-directory.ts";
import { createDeps } from "./deps.ts";
import { type Env, parseEnv } from "./env.ts";
import { jobHandlers } from "./jobs/job-handlers.ts";
import { startJobWorker } from "./jobs/job-queue.ts";
import { createLifecycle } from "./lifecycle.ts";
import { log, serializeError } from "./log.ts";
import { scheduleUnpaidOrderExpiry } from "./orders/order-status.ts";
import { scheduleUploadSweep } from "./products/product-images.ts";
import { scheduleShipmentPolling } from "./shipping/shipments.ts";
import { seedShopDetails } from "./shop/shop.data.ts";

// read env -> start or connect PostgreSQL -> migrate -> seed -> listen
async function main() {
  if (existsSync(".env")) process.loadEnvFile(".env");
  let env: Env;
  try {
    env = parseEnv();
  } catch (error) {
    log.fatal((error as Error).message);
    process.exit(1);
  }
  // This process shuts down on its own terms (below), the embedded database last.
  releaseSignalHooks();
  // A stray promise (a library's background query during an outage) is logged, never ends the shop.
  process.on("unhandledRejection", (reason) =>
    log.error({ err: serializeError(reason) }, "unhandled promise rejection"),
  );

  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.DATA_DIR);
  const databaseUrl = env.DATABASE_URL ?? embedded?.url;
  if (!databaseUrl) throw new Error("No database URL");

  // Instances started together take turns; migrations may run longer than a request's statement timeout.
  await withStartupLock(databaseUrl, async () => {
    const startup = createDb(databaseUrl, { max: 2 });
    try {
      await migrateDatabase(startup.db);
      await seedCatalogue(startup.db);
      await seedShopDetails(startup.db, env);
    } finally {
      await startup.pool.end();
    }
  });

  const { db, pool } = createDb(databaseUrl, {
    max: env.DB_POOL_MAX,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  });
  const lifecycle = createLifecycle();
  const deps = createDeps({ db, env });
  const { listener } = createShop(deps, { lifecycle });

  // Background work registers here how it is stopped; shutdown stops it after the last request.
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
  lifecycle.onStop("upload-sweep", scheduleUploadSweep(db));
  lifecycle.onStop("catalogue-listener", () => deps.catalogue.stop());
  lifecycle.onStop("session-and-cart-listener", () => deps.live.stop());

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
    log.info(
      { port, database: embedded ? "embedded" : "external" },
      `Shop ready on ${shownUrl} (${embedded ? `embedded PostgreSQL in ${env.DATA_DIR}` : "PostgreSQL at DATABASE_URL"})`,
    );
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, "shutting down");
    await lifecycle.shutdown({
      server,
      graceMs: env.SHUTDOWN_GRACE_MS,
      finally: [() => pool.end(), async () => embedded?.stop()],
    });
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  log.fatal({ err: serializeError(error) }, "The shop could not start");
  process.exit(1);
});
