import { existsSync } from "node:fs";
import { serve } from "@hono/node-server";
import { createApp } from "./app.ts";
import { createDb, migrateDatabase } from "./db/client.ts";
import { startEmbeddedPostgres } from "./db/embedded.ts";
import { seedCatalogue } from "./db/seed/seed.ts";
import { createDeps } from "./deps.ts";
import { type Env, parseEnv } from "./env.ts";
import { scheduleUnpaidOrderExpiry } from "./orders/order-status.ts";

// read env -> start or connect PostgreSQL -> migrate -> seed -> listen
async function main() {
  if (existsSync(".env")) process.loadEnvFile(".env");
  let env: Env;
  try {
    env = parseEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }

  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.DATA_DIR);
  const databaseUrl = env.DATABASE_URL ?? embedded?.url;
  if (!databaseUrl) throw new Error("No database URL");
  const { db, pool } = createDb(databaseUrl);
  await migrateDatabase(db);
  await seedCatalogue(db);

  const deps = createDeps({ db, env });
  const app = createApp(deps);
  const stopExpiry = scheduleUnpaidOrderExpiry(deps);
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    const where = embedded ? `embedded PostgreSQL in ${env.DATA_DIR}` : "PostgreSQL at DATABASE_URL";
    console.log(`Shop ready on http://localhost:${info.port} (${where})`);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close();
    stopExpiry();
    await deps.catalogue.stop();
    await pool.end();
    await embedded?.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error("The shop could not start:", error);
  process.exit(1);
});
