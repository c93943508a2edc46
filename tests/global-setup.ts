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

/**
 * One PostgreSQL for the whole run (TEST_DATABASE_URL, or an embedded one in a temporary
 * directory) holding a migrated, seeded template that each test file clones in milliseconds.
 */
export default async function setup(project: TestProject) {
  const dataDir = process.env.TEST_DATABASE_URL
    ? undefined
    : await mkdtemp(path.join(tmpdir(), "shop-test-"));
  const embedded = dataDir ? await startEmbeddedPostgres(dataDir) : undefined;
  const serverUrl = process.env.TEST_DATABASE_URL ?? embedded?.url ?? "";

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();

  const template = createDb(withDatabase(serverUrl, TEMPLATE_DATABASE), { max: 1 });
  await migrateDatabase(template.db);
  await seedCatalogue(template.db);
  await template.pool.end(); // a template cannot be cloned while anyone is connected to it

  project.provide("testDatabaseServer", serverUrl);

  return async () => {
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
