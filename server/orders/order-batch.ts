import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import type { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Db, Tx } from "../db/client.ts";
import {
  inline,
  inMessageTransaction,
  type MessageTransaction,
  RAW_DATES,
  type Statement,
} from "../db/message-transaction.ts";
import { log } from "../log.ts";

type Work<T> = (transaction: MessageTransaction, results: pg.QueryResult[]) => Promise<T>;

type Waiting = {
  first: readonly Statement[];
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** How long the first order of a batch waits for others, and how many one transaction takes at most. */
export type BatchOptions = { gatherMs: number; maxOrders: number };

const DEFAULTS: BatchOptions = { gatherMs: 2, maxOrders: 50 };

/** A PostgreSQL refusal of a statement (it has an SQLSTATE); anything else means the connection is not sound. */
const refusedByPostgres = (error: unknown) =>
  error instanceof Error && typeof (error as { code?: unknown }).code === "string";

/**
 * Orders placed together (docs/decisions/069, fourth pass): the orders that arrive in this process while a batch
 * is running (or within `gatherMs` of the first) run one after another in ONE transaction, each inside its own
 * SAVEPOINT, and are answered once that transaction has committed: one commit (one flush of the WAL) for the
 * batch, and the product's row lock taken once by the batch instead of passed from order to order, each holding
 * it through its own flush. An order that fails on its own account (a PostgreSQL refusal or an error thrown by its
 * work: sold out, cart changed, COD limit, key claimed) is rolled back to its savepoint and answered alone; the
 * rest go on. Anything else (the connection lost, the commit failing) rolls the batch back and places each of its
 * orders one by one, as inMessageTransaction does, so every order stays all-or-nothing and the Idempotency-Key of
 * one whose batch did commit before the connection was lost finds its order.
 */
export class OrderBatcher {
  private readonly waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly options: BatchOptions = DEFAULTS,
  ) {}

  /** inMessageTransaction's contract: `work` gets the results of `first` and ends its order with commitWith. */
  place<T>(first: readonly Statement[], work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ first, work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        setTimeout(() => void this.drain(), this.options.gatherMs);
      }
    });
  }

  private async drain() {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.options.maxOrders);
        if (batch.length === 1) await this.alone(batch);
        else await this.together(batch);
      }
    } finally {
      this.running = false;
    }
  }

  /** Each order in its own transaction, at once, as without batching. */
  private async alone(batch: Waiting[]) {
    await Promise.all(
      batch.map((each) =>
        inMessageTransaction(this.db, each.first, each.work).then(each.resolve, each.reject),
      ),
    );
  }

  private async together(batch: Waiting[]) {
    let outcomes: Outcome[];
    try {
      outcomes = await this.inOneTransaction(batch);
    } catch (error) {
      log.warn({ err: error, orders: batch.length }, "order batch failed; placing its orders one by one");
      await this.alone(batch);
      return;
    }
    batch.forEach((each, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) each.resolve(outcome.value);
      else each.reject(outcome.error);
    });
  }

  /** The orders' outcomes once their transaction has committed; throws when it could not be. */
  private async inOneTransaction(batch: Waiting[]): Promise<Outcome[]> {
    const base = this.db._.session as unknown as {
      dialect: PgDialect;
      schema: ConstructorParameters<typeof NodePgSession>[2];
      options: ConstructorParameters<typeof NodePgSession>[3];
    };
    const client = await this.db.$client.connect();
    let broken: Error | undefined;
    const run = async (text: string) => {
      try {
        const result = (await client.query({ text, types: RAW_DATES })) as unknown as
          | pg.QueryResult
          | pg.QueryResult[];
        return Array.isArray(result) ? result : [result];
      } catch (error) {
        if (!refusedByPostgres(error)) broken = error as Error;
        throw error;
      }
    };
    const textOf = (statements: readonly Statement[]) =>
      statements.map((statement) => inline(base.dialect, statement)).join(";\n");
    let open = false;
    try {
      await run("begin");
      open = true;
      const session = new NodePgSession(client, base.dialect, base.schema, base.options);
      const tx = new NodePgTransaction(base.dialect, session, base.schema) as unknown as Tx;
      const outcomes: Outcome[] = [];
      for (const each of batch) {
        let released = false;
        try {
          const results = await run(`savepoint batched_order;\n${textOf(each.first)}`);
          const transaction: MessageTransaction = {
            tx,
            send: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(textOf(statements))),
            async commitWith(statements) {
              const sent = await run(
                `${textOf(statements)}${statements.length ? ";\n" : ""}release savepoint batched_order`,
              );
              released = true;
              return sent.slice(0, statements.length);
            },
          };
          outcomes.push({ ok: true, value: await each.work(transaction, results.slice(1)) });
        } catch (error) {
          if (broken) throw broken;
          outcomes.push({ ok: false, error });
        }
        // Whatever an order did not commit (a refusal, or a replay that only read) is undone, as a rollback
        // undoes it in a transaction of its own.
        if (!released) await run("rollback to savepoint batched_order; release savepoint batched_order");
      }
      await run("commit");
      open = false;
      return outcomes;
    } finally {
      if (open && !broken) {
        await client.query("rollback").catch((error: Error) => {
          broken = error;
        });
      }
      client.release(broken);
    }
  }
}

const batchers = new WeakMap<Db, OrderBatcher>();

/** This process's batcher for the database `db` (one per pool). */
export function orderBatcherFor(db: Db): OrderBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new OrderBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}

/** inMessageTransaction for an order, placed together with the others this process is placing (OrderBatcher). */
export function placeTogether<T>(db: Db, first: readonly Statement[], work: Work<T>): Promise<T> {
  return orderBatcherFor(db).place(first, work);
}
