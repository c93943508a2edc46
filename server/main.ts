import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { runWorkers } from "./cluster.ts";
import { createDb, migrateDatabase, withStartupLock } from "./db/client.ts";
import { releaseSignalHooks, startEmbeddedPostgres } from "./db/embedded.ts";
import { seedCatalogue } from "./db/seed/seed.ts";
import { type Env, parseEnv } from "./env.ts";
import { log, serializeError } from "./log.ts";
import { resolveAuthSecret } from "./secrets.ts";
import { withOwnersShopName } from "./settings/settings.data.ts";
import { seedShopDetails } from "./shop/shop.data.ts";

// read env -> start or connect PostgreSQL -> migrate -> seed -> listen (here, or in SHOP_WORKERS workers)
async function main() {
  if (existsSync(".env")) process.loadEnvFile(".env");
  let env: Env;
  try {
    env = parseEnv();
  } catch (error) {
    log.fatal((error as Error).message);
    process.exit(1);
  }
  // Every process of the shop shuts down on its own terms (the embedded database last), not by the
  // library's hooks.
  releaseSignalHooks();
  // A stray promise (a library's background query during an outage) is logged, never ends the shop.
  process.on("unhandledRejection", (reason) =>
    log.error({ err: serializeError(reason) }, "unhandled promise rejection"),
  );
  // The server's modules (the app, its renderer, the PIN directory) are loaded only where a shop serves, so
  // a cluster's primary, which only starts the database and watches its workers, stays small.
  const serve = async (...args: Parameters<typeof import("./serve.ts").serve>) =>
    (await import("./serve.ts")).serve(...args);

  // A worker of a cluster: the primary has started, migrated and seeded the database it names.
  if (cluster.isWorker) {
    if (!env.DATABASE_URL) throw new Error("A shop worker was started without DATABASE_URL");
    await serve(env, env.DATABASE_URL, { database: `worker ${cluster.worker?.id}` });
    return;
  }

  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.DATA_DIR);
  const databaseUrl = env.DATABASE_URL ?? embedded?.url;
  if (!databaseUrl) throw new Error("No database URL");

  // Instances started together take turns; migrations may run longer than a request's statement timeout.
  await withStartupLock(databaseUrl, async () => {
    const startup = createDb(databaseUrl, { max: 2 });
    try {
      await migrateDatabase(startup.db);
      await seedCatalogue(startup.db);
      // The legal name's first value is the shop's name as the owner has it, not SHOP_NAME's (decision 079).
      await seedShopDetails(startup.db, await withOwnersShopName(startup.db, env));
    } finally {
      await startup.pool.end();
    }
  });
  const database = embedded ? `embedded PostgreSQL in ${env.DATA_DIR}` : "PostgreSQL at DATABASE_URL";

  if (env.SHOP_WORKERS === 1) {
    await serve(env, databaseUrl, { database, stopAlso: async () => embedded?.stop() });
    return;
  }
  runWorkers({
    count: env.SHOP_WORKERS,
    // Every worker signs cookies with the one secret: a generated one is made here once, not by each worker
    // at once into the same file (a session signed by one would be refused by the others).
    workerEnv: { DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: resolveAuthSecret(env) },
    graceMs: env.SHUTDOWN_GRACE_MS,
    url: env.PUBLIC_URL,
    database,
    stopAlso: async () => embedded?.stop(),
  });
}

main().catch((error) => {
  log.fatal({ err: serializeError(error) }, "The shop could not start");
  process.exit(1);
});
