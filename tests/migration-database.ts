import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { createDb, migrationsFolder } from "../server/db/client.ts";
import { withDatabase } from "./database-url.ts";

export type MigrationDatabase = ReturnType<typeof createDb> & {
  /** A copy of the migrations folder whose journal ends just before the migration under test. */
  migrationsBefore: string;
};

async function adminQuery(serverUrl: string, text: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * An empty database for a test of one migration (the migration whose tag ends with `tag`), and the
 * migrations as they were before it, so the test can build a shop as it stood then, fill it with the case the
 * migration must handle, and run every migration. Created before the file's tests and dropped after them;
 * the object is filled in by the time the first test runs.
 */
export function setUpMigrationDatabase(tag: string): MigrationDatabase {
  const serverUrl = inject("testDatabaseServer");
  const name = `shop_migration_${randomBytes(6).toString("hex")}`;
  const database = {} as MigrationDatabase;
  beforeAll(async () => {
    await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    const before = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(migrationsFolder, before, { recursive: true });
    const journalPath = path.join(before, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((entry) => entry.tag.endsWith(tag));
    expect(cut).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, cut);
    await writeFile(journalPath, JSON.stringify(journal));
    Object.assign(database, createDb(withDatabase(serverUrl, name), { max: 1 }), {
      migrationsBefore: before,
    });
  });
  afterAll(async () => {
    await database.pool?.end();
    if (database.migrationsBefore) await rm(database.migrationsBefore, { recursive: true, force: true });
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  return database;
}
