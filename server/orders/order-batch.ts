import { inArray, sql } from "drizzle-orm";
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
import { combos, products } from "../db/schema.ts";
import { log } from "../log.ts";

/** Units of one product or combo an order takes. */
export type StockLine = { kind: "product" | "combo"; itemId: string; quantity: number };

/**
 * An order's transaction: inMessageTransaction's, and its end, commitTaking: the order's last statements, then
 * its stock taken (`stock.statements`, when it is placed alone) and COMMIT.
 */
export type OrderTransaction = MessageTransaction & {
  commitTaking(
    statements: readonly Statement[],
    stock: { lines: readonly StockLine[]; statements: readonly Statement[] },
  ): Promise<pg.QueryResult[]>;
};

type Work<T> = (transaction: OrderTransaction, results: pg.QueryResult[]) => Promise<T>;

type Waiting = {
  first: readonly Statement[];
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Batches this order was put back from, its stock having run short behind orders before it. */
  retries: number;
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * How long the first order of a batch waits for others, how many one transaction takes at most, and how many
 * batches run at once (while one waits for PostgreSQL, this process prices another's orders).
 */
export type BatchOptions = { gatherMs: number; maxOrders: number; lanes: number };

// PostgreSQL keeps 64 subtransactions per backend in shared memory; past that every snapshot taken meanwhile
// looks them up in pg_subtrans. Each order of a batch is one, open until the batch commits.
const DEFAULTS: BatchOptions = { gatherMs: 2, maxOrders: 32, lanes: 2 };

/** A PostgreSQL refusal of a statement (it has an SQLSTATE); anything else means the connection is not sound. */
const refusedByPostgres = (error: unknown) =>
  error instanceof Error && typeof (error as { code?: unknown }).code === "string";

/**
 * Orders placed together (docs/decisions/069, fourth pass). The orders that arrive in this process while a batch is
 * running (or within `gatherMs` of the first) run one after another in ONE transaction, each from a SAVEPOINT of
 * its own, and are answered once that transaction has committed. Their stock is taken last, by the batch: the
 * rows of the products and combos its orders hold are locked, the orders are kept in the order they came while
 * there are units for them, the first that does not fit is rolled back to its savepoint with every order after
 * it (they go to the next batch, where they are priced against what is left), and one UPDATE per item takes the
 * units with the COMMIT. So the product's row lock, which every order for it waited on through each order's own
 * commit and its WAL flush, is held once a batch, for two round trips and one flush.
 *
 * An order that fails on its own account (a PostgreSQL refusal or an error thrown by its work: sold out, cart
 * changed, COD limit, key claimed) is rolled back to its savepoint and answered alone; the rest go on. Anything
 * else (the connection lost, the commit failing) rolls the batch back and places each of its orders one by one,
 * each in a transaction of its own, so every order stays all-or-nothing, and the Idempotency-Key of one whose
 * batch did commit before its answer was lost finds that order.
 */
export class OrderBatcher {
  private readonly waiting: Waiting[] = [];
  /** Batches running, each on a connection of its own. */
  private lanes = 0;
  private gathering = false;

  constructor(
    private readonly db: Db,
    private readonly options: BatchOptions = DEFAULTS,
  ) {}

  place<T>(first: readonly Statement[], work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        first,
        work: work as Work<unknown>,
        resolve: resolve as (value: unknown) => void,
        reject,
        retries: 0,
      });
      this.soon();
    });
  }

  /** A batch starts `gatherMs` after an order finds a lane free, with the orders waiting by then. */
  private soon() {
    if (this.gathering || this.lanes >= this.options.lanes) return;
    this.gathering = true;
    setTimeout(() => {
      this.gathering = false;
      this.start();
    }, this.options.gatherMs);
  }

  private start() {
    while (this.lanes < this.options.lanes && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxOrders);
      this.lanes += 1;
      void this.run(batch).finally(() => {
        this.lanes -= 1;
        if (this.waiting.length > 0) this.soon();
      });
    }
  }

  private async run(batch: Waiting[]) {
    // An order put back twice waits no more on the orders before it: it is placed alone.
    const alone = batch.filter((each) => each.retries >= 2);
    const together = batch.filter((each) => each.retries < 2);
    if (together.length === 1) alone.push(...together.splice(0));
    await Promise.all([this.alone(alone), together.length > 0 ? this.together(together) : undefined]);
  }

  /** Each order in its own transaction, at once, as without batching. */
  private async alone(batch: Waiting[]) {
    await Promise.all(
      batch.map((each) =>
        inMessageTransaction(this.db, each.first, (transaction, results) =>
          each.work(
            {
              ...transaction,
              commitTaking: (statements, stock) =>
                transaction.commitWith([...statements, ...stock.statements]),
            },
            results,
          ),
        ).then(each.resolve, each.reject),
      ),
    );
  }

  private async together(batch: Waiting[]) {
    let settled: { outcomes: Outcome[]; putBack: number };
    try {
      settled = await this.inOneTransaction(batch);
    } catch (error) {
      log.warn(
        { err: error, orders: batch.length },
        "an order batch failed; its orders are placed one by one",
      );
      await this.alone(batch);
      return;
    }
    const { outcomes, putBack } = settled;
    batch.slice(0, putBack).forEach((each, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) each.resolve(outcome.value);
      else each.reject(outcome.error);
    });
    // Those put back go first into the next batch, in the order they came.
    this.waiting.unshift(...batch.slice(putBack).map((each) => ({ ...each, retries: each.retries + 1 })));
  }

  /**
   * The outcomes of the orders this transaction committed, and the index from which orders were put back (the
   * batch's length when none were); throws when the transaction could not commit.
   */
  private async inOneTransaction(batch: Waiting[]): Promise<{ outcomes: Outcome[]; putBack: number }> {
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
      /** Each order's stock, for those whose rows are written (their savepoints stay open until the commit). */
      const taking = new Map<number, readonly StockLine[]>();
      for (const [index, each] of batch.entries()) {
        const savepoint = `batched_order_${index}`;
        const transaction: OrderTransaction = {
          tx,
          send: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(textOf(statements))),
          commitWith: (statements) => transaction.commitTaking(statements, { lines: [], statements: [] }),
          async commitTaking(statements, stock) {
            const sent = statements.length === 0 ? [] : await run(textOf(statements));
            taking.set(index, stock.lines);
            return sent;
          },
        };
        try {
          const results = await run(`savepoint ${savepoint};\n${textOf(each.first)}`);
          outcomes.push({ ok: true, value: await each.work(transaction, results.slice(1)) });
        } catch (error) {
          if (broken) throw broken;
          taking.delete(index);
          outcomes.push({ ok: false, error });
        }
        // Whatever an order did not commit (a refusal, or a replay that only read) is undone, as a rollback undoes
        // it in a transaction of its own.
        if (!taking.has(index))
          await run(`rollback to savepoint ${savepoint}; release savepoint ${savepoint}`);
      }
      const putBack = await this.takeStock(run, taking, batch.length);
      open = false;
      return { outcomes, putBack };
    } finally {
      if (open && !broken) {
        await client.query("rollback").catch((error: Error) => {
          broken = error;
        });
      }
      client.release(broken);
    }
  }

  /**
   * Locks the rows of what the batch's orders take, keeps them in the order they came while there are units for
   * them, rolls back from the first that does not fit, and takes the units of those kept with the COMMIT. Returns
   * the index of that first order (the batch's length when all fit).
   */
  private async takeStock(
    run: (text: string) => Promise<pg.QueryResult[]>,
    taking: Map<number, readonly StockLine[]>,
    length: number,
  ) {
    const key = (kind: string, itemId: string) => `${kind}:${itemId}`;
    const slugs = new Set<string>();
    const comboIds = new Set<string>();
    for (const lines of taking.values()) {
      for (const line of lines) (line.kind === "product" ? slugs : comboIds).add(line.itemId);
    }
    if (slugs.size + comboIds.size === 0) {
      await run("commit");
      return length;
    }
    // Products, then combos, each by key: the order every order and cancellation locks them in.
    const dialect = (this.db._.session as unknown as { dialect: PgDialect }).dialect;
    const locks: Statement[] = [];
    if (slugs.size > 0) {
      const list = [...slugs].sort();
      locks.push(
        sql`select ${products.slug} as id, ${products.stock} as stock from ${products} where ${inArray(products.slug, list)} order by 1 for update`,
      );
    }
    if (comboIds.size > 0) {
      const list = [...comboIds].sort();
      locks.push(
        sql`select ${combos.id} as id, ${combos.stock} as stock from ${combos} where ${inArray(combos.id, list)} order by 1 for update`,
      );
    }
    const locked = await run(locks.map((statement) => inline(dialect, statement)).join(";\n"));
    const left = new Map<string, number>();
    const kinds = [...(slugs.size > 0 ? ["product"] : []), ...(comboIds.size > 0 ? ["combo"] : [])];
    locked.forEach((result, position) => {
      for (const row of result.rows as { id: string; stock: number }[]) {
        left.set(key(kinds[position] as string, row.id), Number(row.stock));
      }
    });
    const taken = new Map<string, { kind: string; itemId: string; quantity: number }>();
    let putBack = length;
    for (const [index, lines] of [...taking.entries()].sort(([a], [b]) => a - b)) {
      const fits = lines.every((line) => {
        const already = taken.get(key(line.kind, line.itemId))?.quantity ?? 0;
        return already + line.quantity <= (left.get(key(line.kind, line.itemId)) ?? 0);
      });
      if (!fits) {
        putBack = index;
        break;
      }
      for (const line of lines) {
        const each = taken.get(key(line.kind, line.itemId)) ?? { ...line, quantity: 0 };
        each.quantity += line.quantity;
        taken.set(key(line.kind, line.itemId), each);
      }
    }
    const updates = [...taken.values()].map(({ kind, itemId, quantity }) =>
      inline(
        dialect,
        kind === "product"
          ? sql`update ${products} set stock = stock - ${quantity}, updated_at = now() where ${products.slug} = ${itemId}`
          : sql`update ${combos} set stock = stock - ${quantity}, updated_at = now() where ${combos.id} = ${itemId}`,
      ),
    );
    const undo = putBack < length ? [`rollback to savepoint batched_order_${putBack}`] : [];
    await run([...undo, ...updates, "commit"].join(";\n"));
    return putBack;
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
