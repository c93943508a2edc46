import { existsSync } from "node:fs";
import { createDb, type Db } from "../server/db/client.ts";
import { connectEmbeddedPostgres, startEmbeddedPostgres } from "../server/db/embedded.ts";
import { type Env, parseEnv } from "../server/env.ts";

/**
 * Runs a command-line script against the shop's database as the server finds it (.env first, then
 * DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, created when `createEmbedded` and not there yet), and
 * closes it after; `work` answers the exit code.
 */
export async function withShopDatabase(
  options: { maxConnections: number; createEmbedded?: boolean },
  work: (shop: { db: Db; env: Env }) => Promise<number>,
): Promise<number> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  const embedded = env.DATABASE_URL
    ? undefined
    : options.createEmbedded && !existsSync(`${env.DATA_DIR}/postgres/PG_VERSION`)
      ? await startEmbeddedPostgres(env.DATA_DIR)
      : await connectEmbeddedPostgres(env.DATA_DIR);
  const { db, pool } = createDb(env.DATABASE_URL ?? embedded?.url ?? "", { max: options.maxConnections });
  try {
    return await work({ db, env });
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

/** Runs a script's main and exits with the code it answers; a failure is printed as one line and exits 1. */
export function runScript(main: () => Promise<number>) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
