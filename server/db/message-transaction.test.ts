import { eq, sql } from "drizzle-orm";
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/database.ts";
import { inMessageTransaction, type MessageTransaction, onConnection } from "./message-transaction.ts";
import { products } from "./schema.ts";

/**
 * inMessageTransaction builds drizzle's transaction by hand from drizzle's internals (`db._.session` and its
 * dialect, schema and options; NodePgSession and NodePgTransaction constructed as drizzle's own transaction()
 * constructs them), which no drizzle release promises to keep. These tests say so by name if an upgrade moves
 * them, instead of orders failing with a TypeError deep in a sale.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe("drizzle's internals inMessageTransaction relies on", () => {
  it("db._.session is a NodePgSession holding the dialect, schema and options drizzle builds a transaction from", () => {
    const session = database.db._.session as unknown as Record<string, unknown>;
    expect(session).toBeInstanceOf(NodePgSession);
    expect(session.dialect).toBeInstanceOf(PgDialect);
    expect(session.schema).toEqual(
      expect.objectContaining({ fullSchema: expect.any(Object), tableNamesMap: expect.any(Object) }),
    );
    expect(session.options).toEqual(expect.any(Object));
    // What drizzle's own transaction() does with them (node-postgres/session.js): a session on one client
    // from the pool, and a transaction over that session.
    const source = NodePgSession.prototype.transaction.toString();
    expect(source).toContain(
      "new NodePgSession(await this.client.connect(), this.dialect, this.schema, this.options)",
    );
    expect(source).toContain("new NodePgTransaction(this.dialect, session, this.schema)");
  });

  it("runs drizzle's queries, relational ones too, on the connection it holds and inside its transaction", async () => {
    const [slug] = await database.db.select({ slug: products.slug }).from(products).limit(1);
    await inMessageTransaction(
      database.db,
      [sql`select pg_backend_pid() as pid, pg_current_xact_id()::text as xact`],
      async (transaction, [opened]) => {
        expect(transaction.tx).toBeInstanceOf(NodePgTransaction);
        const first = opened?.rows[0];
        expect(first).toEqual({ pid: expect.any(Number), xact: expect.any(String) });
        const viaDrizzle = await transaction.tx.execute<{ pid: number; xact: string }>(
          sql`select pg_backend_pid() as pid, pg_current_xact_id()::text as xact`,
        );
        expect(viaDrizzle.rows[0]).toEqual(first);
        // The relational API reads the schema handed to the transaction.
        const found = await transaction.tx.query.products.findFirst({
          where: eq(products.slug, slug?.slug ?? ""),
          columns: { slug: true },
        });
        expect(found).toEqual({ slug: slug?.slug });
        await transaction.commitWith([]);
      },
    );
  });

  it("commits only with commitWith: a change made through drizzle is gone when the work throws instead", async () => {
    const [row] = await database.db
      .select({ slug: products.slug, stock: products.stock })
      .from(products)
      .limit(1);
    const slug = row?.slug ?? "";
    const stock = row?.stock ?? 0;
    const setStock = ({ tx }: MessageTransaction, value: number) =>
      tx.update(products).set({ stock: value }).where(eq(products.slug, slug));
    await expect(
      inMessageTransaction(database.db, [], async (transaction) => {
        await setStock(transaction, stock + 7);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    const stockNow = async () =>
      (await database.db.select({ stock: products.stock }).from(products).where(eq(products.slug, slug)))[0]
        ?.stock;
    expect(await stockNow()).toBe(stock);
    await inMessageTransaction(database.db, [], async (transaction) => {
      await setStock(transaction, stock + 7);
      await transaction.commitWith([]);
    });
    expect(await stockNow()).toBe(stock + 7);
  });
});

describe("reads before a transaction, on one connection", () => {
  it("sends them in one message, their results in order, then begins a transaction on the same connection", async () => {
    const pids = await onConnection(database.db, async (connection) => {
      const [first, pid] = await connection.read([
        sql`select 1 as "n"`,
        sql`select pg_backend_pid() as "pid"`,
      ]);
      expect(first?.rows).toEqual([{ n: 1 }]);
      const inside = await connection.transaction(
        [sql`select pg_backend_pid() as "pid"`],
        async (_transaction, [again]) => again?.rows[0]?.pid,
      );
      return [pid?.rows[0]?.pid, inside];
    });
    expect(pids[0]).toBeTypeOf("number");
    expect(pids[1]).toBe(pids[0]);
  });

  it("gives the connection back after a read that failed, still usable", async () => {
    await expect(
      onConnection(database.db, (connection) => connection.read([sql`select 1/0`])),
    ).rejects.toThrow(/division by zero/);
    const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
