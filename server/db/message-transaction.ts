import { type Column, getTableColumns, is, Param, Placeholder, SQL, sql, type Table } from "drizzle-orm";
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import pgUtils from "pg/lib/utils.js";
import type { Db, Tx } from "./client.ts";

type Built = { sql: string; params: unknown[] };

/**
 * A statement to send: drizzle's sql template, a query builder (insert, update, select) not yet run, or a
 * statement already built (fromTemplate).
 */
export type Statement = SQL | { toSQL(): Built } | { built: Built };

/**
 * A transaction whose BEGIN goes with its first statements and whose COMMIT goes with its last, several
 * statements to a message (PostgreSQL's simple query protocol runs them in turn and stops at the first error,
 * which leaves the transaction aborted). `tx` is the same transaction for drizzle's queries in between.
 */
export type MessageTransaction = {
  tx: Tx;
  /** The statements in one message, their results in order. */
  send(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
  /** The statements and COMMIT in one message: the transaction ends with them, or rolls back whole. */
  commitWith(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
};

/**
 * Runs `work` in a transaction begun by the message that carries `first` (their results are handed to it).
 * Whatever `work` has not committed through commitWith when it returns or throws is rolled back.
 *
 * For a path that must cost few round trips (placing an order, docs/decisions/069): each round trip costs
 * this process a drizzle build, a socket write and a parse, and PostgreSQL a wake-up, so BEGIN and COMMIT
 * ride with statements instead of costing one each, as drizzle's own transaction makes them. The simple
 * protocol takes no parameters: each value is inlined as a quoted literal, which PostgreSQL types from its
 * context exactly as it types an untyped parameter.
 */
export function inMessageTransaction<T>(
  db: Db,
  first: readonly Statement[],
  work: (transaction: MessageTransaction, results: pg.QueryResult[]) => Promise<T>,
): Promise<T> {
  return onConnection(db, (connection) => connection.transaction(first, work));
}

/** One pool connection held for a few messages: reads outside a transaction, then maybe one. */
export type HeldConnection = {
  /**
   * The statements in one message with no BEGIN, their results in order: no transaction block to open or
   * close, so reads that may be all a request needs cost one round trip (they take no row locks).
   */
  read(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
  /** inMessageTransaction on this connection. */
  transaction<T>(
    first: readonly Statement[],
    work: (transaction: MessageTransaction, results: pg.QueryResult[]) => Promise<T>,
  ): Promise<T>;
};

/**
 * Runs `use` with a connection of the pool held for it, so a request that reads first and then decides
 * whether it needs a transaction waits for the pool once (placing an order, docs/decisions/069).
 */
export async function onConnection<T>(db: Db, use: (connection: HeldConnection) => Promise<T>): Promise<T> {
  // The same parts drizzle's transaction() builds its own from, on a connection this function holds.
  const base = db._.session as unknown as {
    dialect: PgDialect;
    schema: ConstructorParameters<typeof NodePgSession>[2];
    options: ConstructorParameters<typeof NodePgSession>[3];
  };
  const client = await db.$client.connect();
  let broken: Error | undefined;
  const run = async (text: string) => {
    try {
      const result = (await client.query({ text, types: RAW_DATES })) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      return Array.isArray(result) ? result : [result];
    } catch (error) {
      if (!(error instanceof Error && "code" in error)) broken = error as Error;
      throw error;
    }
  };
  const textOf = (statements: readonly Statement[]) =>
    statements.map((statement) => inline(base.dialect, statement)).join(";\n");
  const connection: HeldConnection = {
    read: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(textOf(statements))),
    async transaction(first, work) {
      let open = true;
      try {
        const results = await run(`begin;\n${textOf(first)}`);
        const session = new NodePgSession(client, base.dialect, base.schema, base.options);
        const tx = new NodePgTransaction(base.dialect, session, base.schema) as unknown as Tx;
        const transaction: MessageTransaction = {
          tx,
          send: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(textOf(statements))),
          async commitWith(statements) {
            const sent = await run(`${textOf(statements)}${statements.length ? ";\n" : ""}commit`);
            open = false;
            return sent.slice(0, statements.length);
          },
        };
        return await work(transaction, results.slice(1));
      } finally {
        if (open && !broken) {
          await client.query("rollback").catch((error: Error) => {
            broken = error;
          });
        }
      }
    },
  };
  try {
    return await use(connection);
  } finally {
    // A connection that failed other than by PostgreSQL refusing a statement is not given to anyone else.
    client.release(broken);
  }
}

/** The statement as text, each parameter inlined as a literal. */
function inline(dialect: PgDialect, statement: Statement) {
  const { sql, params } = is(statement, SQL)
    ? dialect.sqlToQuery(statement)
    : "built" in statement
      ? statement.built
      : statement.toSQL();
  return sql.replace(/\$(\d+)/g, (_, index: string) => literal(params[Number(index) - 1]));
}

function literal(value: unknown) {
  const prepared = pgUtils.prepareValue(value);
  return prepared === null || prepared === undefined ? "null" : pg.escapeLiteral(String(prepared));
}

const templates = new Map<string, Built>();
const templateDialect = new PgDialect();

/**
 * The statement `build` makes, with placeholders for `values`, built by drizzle once per `shape` (a key naming
 * the statement and whatever changes its text, such as how many rows an insert has) and then only filled: a
 * drizzle build costs 50-150 µs of this process's CPU, several times the rest of a statement's way here.
 */
export function fromTemplate(
  shape: string,
  build: () => SQL | { toSQL(): Built },
  values: Record<string, unknown>,
): Statement {
  let built = templates.get(shape);
  if (!built) {
    const statement = build();
    built = is(statement, SQL) ? templateDialect.sqlToQuery(statement) : statement.toSQL();
    templates.set(shape, built);
  }
  return { built: { sql: built.sql, params: fill(built.params, values) } };
}

/** drizzle's fillPlaceholders, but a null stays null (a column's encoder may not take one). */
function fill(params: unknown[], values: Record<string, unknown>) {
  return params.map((param) => {
    const placeholder = is(param, Placeholder)
      ? param
      : is(param, Param) && is(param.value, Placeholder)
        ? param.value
        : null;
    if (!placeholder) return param;
    if (!(placeholder.name in values)) throw new Error(`no value for placeholder "${placeholder.name}"`);
    const value = values[placeholder.name];
    if (value === null || value === undefined || !is(param, Param)) return value ?? null;
    return param.encoder.mapToDriverValue(value);
  });
}

/**
 * Rows to insert through fromTemplate: each value a placeholder (an sql value stays as it is, and must hold
 * only placeholders or constants), a value left undefined left out for its column's default. The shape names
 * the columns each row gives.
 */
export function placeholderRows<T extends Record<string, unknown>>(rows: readonly T[]) {
  const values: Record<string, unknown> = {};
  const held = rows.map((row, index) => {
    const entries = Object.entries(row)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => {
        if (is(value, SQL)) return [key, value];
        const name = `${index}.${key}`;
        values[name] = value;
        return [key, sql.placeholder(name)];
      });
    return Object.fromEntries(entries) as T;
  });
  const shape = held.map((row) => Object.keys(row).join(",")).join("|");
  return { held, values, shape };
}

/** Dates and times as PostgreSQL wrote them, as drizzle reads them, for its columns to map (rowOf). */
const RAW_DATE_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115,
  1182,
  1185,
  1187,
  1231,
]);
const RAW_DATES = {
  getTypeParser: (id: number, format?: "text" | "binary") =>
    RAW_DATE_TYPES.has(id) ? (value: string) => value : pg.types.getTypeParser(id, format),
} as pg.CustomTypesConfig;

/** A row a statement returned (`returning *`), as drizzle's select of the whole table would give it. */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  return selectedRow(getTableColumns(table), raw) as T["$inferSelect"];
}

/** A row of a select of these columns (by their names in the table), as drizzle's select would give it. */
export function selectedRow<C extends Record<string, Column>>(
  columns: C,
  raw: Record<string, unknown>,
): { [K in keyof C]: C[K]["_"]["data"] } {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as { [K in keyof C]: C[K]["_"]["data"] };
}
