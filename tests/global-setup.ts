import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb, migrateDatabase } from "../server/db/client.ts";
import { startEmbeddedPostgres } from "../server/db/embedded.ts";
import { seedCatalogue } from "../server/db/seed/seed.ts";
import { TEMPLATE_DATABASE, withDatabase } from "./database-url.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A URL of the test PostgreSQL server; each test file clones TEMPLATE_DATABASE on it. */
    testDatabaseServer: string;
  }
}

/** The run's PostgreSQL and template, shared by every project's global setup (they run in one process). */
type TestPostgres = { serverUrl: string; projects: number; stop: () => Promise<void> };
const RUN_POSTGRES = Symbol.for("shop-test-postgres");
const run = globalThis as typeof globalThis & { [RUN_POSTGRES]?: Promise<TestPostgres> };

/**
 * One PostgreSQL for the whole run (TEST_DATABASE_URL, or an embedded one in a temporary
 * directory) holding a migrated, seeded template that each test file clones in milliseconds. The unit,
 * e2e and production projects each name this setup; the first starts it, the others use it, and the last
 * to finish stops it.
 */
export default async function setup(project: TestProject) {
  run[RUN_POSTGRES] ??= startTestPostgres();
  const postgres = await run[RUN_POSTGRES];
  postgres.projects += 1;
  project.provide("testDatabaseServer", postgres.serverUrl);

  return async () => {
    postgres.projects -= 1;
    if (postgres.projects > 0) return;
    run[RUN_POSTGRES] = undefined;
    await postgres.stop();
  };
}

async function startTestPostgres(): Promise<TestPostgres> {
  const dataDir = process.env.TEST_DATABASE_URL
    ? undefined
    : await mkdtemp(path.join(tmpdir(), "shop-test-"));
  const embedded = dataDir ? await startEmbeddedPostgres(dataDir) : undefined;
  const serverUrl = process.env.TEST_DATABASE_URL ?? embedded?.url ?? "";

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if (embedded) {
    // The run's own throwaway cluster: nothing in it has to survive a crash of the machine, so a commit does not
    // wait for its WAL to reach the disk (about 20 ms a commit on a busy machine, 0.5 ms without), and pages
    // are not flushed or written whole to the WAL. What a query sees is the same.
    for (const setting of ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]) {
      await admin.query(`ALTER SYSTEM SET ${setting}`);
    }
    await admin.query("SELECT pg_reload_conf()");
  }
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();

  const template = createDb(withDatabase(serverUrl, TEMPLATE_DATABASE), { max: 1 });
  await migrateDatabase(template.db);
  await seedCatalogue(template.db);
  await template.pool.end(); // a template cannot be cloned while anyone is connected to it

  return {
    serverUrl,
    projects: 0,
    async stop() {
      await embedded?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
