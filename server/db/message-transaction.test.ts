import { eq, sql } from "drizzle-orm";
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/database.ts";
import type { Db } from "./client.ts";
import { createDb } from "./client.ts";
import {
  fromTemplate,
  type MessageTransaction,
  onConnection,
  type Statement,
} from "./message-transaction.ts";
import { products } from "./schema.ts";

/**
 * A message transaction builds drizzle's transaction by hand from drizzle's internals (`db._.session` and its
 * dialect, schema and options; NodePgSession and NodePgTransaction constructed as drizzle's own transaction()
 * constructs them), which no drizzle release promises to keep. These tests say so by name if an upgrade moves
 * them, instead of orders failing with a TypeError deep in a sale.
 */
/** A message transaction on a connection of its own, as placeOrder opens one after its look. */
const inMessageTransaction = <T>(
  db: Db,
  first: readonly Statement[],
  work: (transaction: MessageTransaction, results: pg.QueryResult[]) => Promise<T>,
) => onConnection(db, (connection) => connection.transaction(first, work));

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe("drizzle's internals a message transaction relies on", () => {
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

describe("a statement built by fromTemplate is prepared once per connection", () => {
  // One connection, so every transaction below runs on the same PostgreSQL session.
  let one: ReturnType<typeof createDb>;
  beforeAll(async () => {
    one = createDb(database.url, { max: 1 });
    await one.db.execute(sql`create table mt_probe (id integer primary key, amount integer not null)`);
    await one.db.execute(sql`insert into mt_probe values (1, 10), (2, 20)`);
  });
  afterAll(() => one?.pool.end());

  const amountOf = (id: number) =>
    fromTemplate("probe amount", () => sql`select amount from mt_probe where id = ${sql.placeholder("id")}`, {
      id,
    });
  const addTo = (id: number, amount: number) =>
    fromTemplate(
      "probe add",
      () =>
        sql`update mt_probe set amount = amount + ${sql.placeholder("amount")} where id = ${sql.placeholder("id")}`,
      { id, amount },
    );
  const prepared = async () =>
    (
      await one.db.execute<{ statement: string; runs: number }>(
        sql`select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where not from_sql order by statement`,
      )
    ).rows;
  const amounts = async () =>
    (await one.db.execute<{ amount: number }>(sql`select amount from mt_probe order by id`)).rows.map(
      (row) => row.amount,
    );

  it("parses it in the first transaction and only binds and runs it in the next", async () => {
    // Twice in one message: parsed by the first Parse only.
    const first = await inMessageTransaction(
      one.db,
      [amountOf(1), amountOf(2)],
      async (transaction, reads) => {
        await transaction.commitWith([]);
        return reads.map((read) => read.rows);
      },
    );
    expect(first).toEqual([[{ amount: 10 }], [{ amount: 20 }]]);
    const second = await inMessageTransaction(one.db, [amountOf(2)], async (transaction, [read]) => {
      await transaction.commitWith([]);
      return read?.rows;
    });
    expect(second).toEqual([{ amount: 20 }]);
    // Parsed once, run three times: a statement parsed again would be refused as existing, or listed twice.
    const probe = (await prepared()).filter((row) => row.statement.includes("mt_probe"));
    expect(probe).toEqual([{ statement: expect.stringContaining("select amount from mt_probe"), runs: 3 }]);
  });

  it("runs nothing after a statement PostgreSQL refuses, and a COMMIT after a refused message commits nothing", async () => {
    await expect(
      inMessageTransaction(one.db, [], async (transaction) => {
        // Refused in the middle of its message: the update after it, parsed for the first time, never runs.
        await transaction
          .send([addTo(1, 1), sql`select 1 / 0`, addTo(2, 1), amountOf(1)])
          .catch((error: Error) => expect(error.message).toContain("division by zero"));
        return transaction.commitWith([]);
      }),
    ).rejects.toThrow("rolled back at its commit");
    expect(await amounts()).toEqual([10, 20]);
    // What was parsed before the refusal is known as parsed, and what came after it is parsed when next sent.
    const placed = await inMessageTransaction(one.db, [addTo(2, 5), addTo(1, 1)], async (transaction) =>
      transaction.commitWith([amountOf(2)]),
    );
    expect(placed.map((result) => result.rows)).toEqual([[{ amount: 25 }]]);
    expect(await amounts()).toEqual([11, 25]);
  });

  it("runs again on a fresh connection when a migration changed a prepared statement's result columns", async () => {
    const read = () =>
      inMessageTransaction(one.db, [amountOf(1)], async (transaction, [result]) => {
        await transaction.commitWith([]);
        return result?.rows;
      });
    expect(await read()).toEqual([{ amount: 11 }]);
    await one.db.execute(sql`alter table mt_probe alter column amount type bigint`);
    // PostgreSQL refuses the statement parsed for an integer column ("cached plan must not change result type").
    expect(await read()).toEqual([{ amount: "11" }]);
    expect(await read()).toEqual([{ amount: "11" }]);
  });
});
