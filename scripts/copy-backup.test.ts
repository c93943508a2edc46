import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../server/errors.ts";
import { createTestDatabase } from "../tests/database.ts";
import { copyBackup, copyRestore, logLostConnections } from "./copy-backup.ts";

const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
let folder = "";
afterAll(async () => {
  for (const database of databases) await database.drop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const terminate = (killer: pg.Client, pid: number) => killer.query("select pg_terminate_backend($1)", [pid]);
const pidOf = async (client: pg.ClientBase | pg.Pool) =>
  (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid ?? 0;
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("logLostConnections", () => {
  it("keeps the process up when a pool's idle or checked-out connection is terminated between queries", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
    const pool = logLostConnections(new pg.Pool({ connectionString: database.url, max: 1 }));
    try {
      const held = await pool.connect();
      await terminate(killer, await pidOf(held));
      await settle();
      await expect(held.query("select 1")).rejects.toThrow();
      held.release(true);

      const idle = await pool.connect();
      const idlePid = await pidOf(idle);
      idle.release();
      await terminate(killer, idlePid);
      await settle();
      // The pool dropped the dead connection and opens a new one.
      expect(await pidOf(pool)).not.toBe(idlePid);
    } finally {
      await killer.end();
      await pool.end();
    }
  });
});

describe("copyRestore", () => {
  it("fails, without ending the process, when its connections are terminated mid-restore", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    databases.push(source, target);
    folder = await mkdtemp(path.join(tmpdir(), "copy-backup-test-"));
    const file = path.join(folder, "shop.backup");
    await copyBackup(source.url, file);
    const targetName = new URL(target.url).pathname.slice(1);

    const killer = new pg.Client({ connectionString: source.url });
    killer.on("error", () => {});
    await killer.connect();
    let settled = false;
    const failure = copyRestore(target.url, file)
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .finally(() => {
        settled = true;
      });
    // A connection cut between two queries is the case that crashed: no query is there to take the error,
    // so pg emits it as an "error" event.
    let terminated = 0;
    while (!settled) {
      const { rowCount } = await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and state in ('idle', 'idle in transaction')`,
        [targetName],
      );
      terminated += rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await killer.end();
    // The restore ends with the lost connection's error (drizzle wraps it when it cuts the migrations).
    expect(isDatabaseUnavailable(await failure)).toBe(true);
    expect(terminated).toBeGreaterThan(0);
    // An "error" event nobody heard would have ended the process (vitest reports it as an unhandled error);
    // give pg's deferred "end" and "error" events their turn before the test is judged.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
});
