import { sql } from "drizzle-orm";
import { NodePgSession } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/database.ts";
import { createDb } from "./client.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it("gives back a client whose BEGIN failed, so a pool of one still serves the next transaction", async () => {
  const { db, pool } = createDb(database.url, { max: 1, connectTimeoutMs: 1_500 });
  try {
    let cut = true;
    // The connection is lost as the client is handed out: drizzle's BEGIN is the first thing to fail on it.
    pool.on("acquire", (client) => {
      if (!cut) return;
      cut = false;
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    });
    await expect(db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    const answered = await db.transaction((tx) => tx.execute<{ one: number }>(sql`select 1 as one`));
    expect(answered.rows).toEqual([{ one: 1 }]);
    expect(pool.totalCount).toBe(1);
  } finally {
    await pool.end();
  }
});

it("is needed: drizzle's transaction() still sends BEGIN before the try that releases its client", () => {
  // When a drizzle release moves BEGIN inside the try (drizzle-team/drizzle-orm#6241), drizzle gives the client
  // back itself and releaseClientOnFailedBegin (client.ts) must go, or the client is released twice.
  const source = NodePgSession.prototype.transaction.toString().replace(/\s+/g, " ");
  const begin = source.indexOf("await tx.execute(sql`begin");
  expect(begin).toBeGreaterThan(-1);
  expect(begin).toBeLessThan(source.indexOf("try {"));
});

it("keeps an unused connection open for idleTimeoutMs, then closes it", async () => {
  // 1.2 s here; the shop's default (DB_IDLE_TIMEOUT_MS) is five minutes, pg's own would be 10 s.
  const { db, pool } = createDb(database.url, { max: 2, idleTimeoutMs: 1_200 });
  try {
    await db.execute(sql`select 1`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(pool.idleCount).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(pool.totalCount).toBe(0);
  } finally {
    await pool.end();
  }
});
