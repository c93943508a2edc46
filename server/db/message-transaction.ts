import { is, Param, Placeholder, SQL, sql } from "drizzle-orm";
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import pgUtils from "pg/lib/utils.js";
import type { Db, DbOrTx, Tx } from "./client.ts";

type Built = { sql: string; params: unknown[] };

/** A statement ready to send: its text with placeholders, their values, and its name when it has a template. */
type Ready = Built & { name?: string };

/**
 * A statement to send: drizzle's sql template, a query builder (insert, update, select) not yet run, or a
 * statement already built (fromTemplate).
 */
export type Statement = SQL | { toSQL(): Built } | { built: Ready };

/**
 * A transaction whose BEGIN goes with its first statements and whose COMMIT goes with its last, several
 * statements to a message (one Sync: PostgreSQL runs them in turn and, at the first error, skips the rest up to
 * the Sync, which leaves the transaction aborted). `tx` is the same transaction for drizzle's queries in between.
 */
export type MessageTransaction = {
  tx: Tx;
  /** The statements in one message, their results in order. */
  send(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
  /** The statements and COMMIT in one message: the transaction ends with them, or rolls back whole. */
  commitWith(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
};

/** One pool connection held for a few messages: reads outside a transaction, then maybe one. */
export type HeldConnection = {
  /**
   * The statements in one message with no BEGIN, their results in order: no transaction block to open or
   * close, so reads that may be all a request needs cost one round trip (they take no row locks).
   */
  read(statements: readonly Statement[]): Promise<pg.QueryResult[]>;
  /**
   * Runs `work` in a transaction begun by the message that carries `first` (their results are handed to it).
   * Whatever `work` has not committed through commitWith when it returns or throws is rolled back.
   *
   * For a path that must cost few round trips (placing an order, docs/decisions/069): each round trip costs
   * this process a drizzle build, a socket write and a parse, and PostgreSQL a wake-up, so BEGIN and COMMIT
   * ride with statements instead of costing one each, as drizzle's own transaction makes them. A message is
   * sent in the extended protocol with one Sync at its end, and a statement built by fromTemplate is a named
   * prepared statement, parsed once per connection, so PostgreSQL neither parses nor plans it again
   * (docs/decisions/069, sixth pass).
   *
   * A prepared statement's result columns are fixed when it is parsed: after a migration changes one of them
   * (ALTER TABLE ... TYPE), PostgreSQL refuses to run it ("cached plan must not change result type"). The
   * transaction is then rolled back whole, its connection dropped with its prepared statements, and `work` run
   * once more from the start on another connection, which parses them afresh.
   */
  transaction<T>(
    first: readonly Statement[],
    work: (transaction: MessageTransaction, results: pg.QueryResult[]) => Promise<T>,
  ): Promise<T>;
};

/**
 * Runs `use` with a connection of the pool held for it, so a request that reads first and then decides
 * whether it needs a transaction waits for the pool once (placing an order, docs/decisions/069). A statement
 * whose result columns a migration changed (see HeldConnection's transaction) runs `use` once more, from the start, on
 * another connection: its reads changed nothing and its transaction was rolled back.
 */
export async function onConnection<T>(db: Db, use: (connection: HeldConnection) => Promise<T>): Promise<T> {
  try {
    return await attempt(db, use);
  } catch (error) {
    if (!isResultTypeChanged(error)) throw error;
    return await attempt(db, use);
  }
}

async function attempt<T>(db: Db, use: (connection: HeldConnection) => Promise<T>): Promise<T> {
  // The same parts drizzle's transaction() builds its own from, on a connection this function holds.
  const base = db._.session as unknown as {
    dialect: PgDialect;
    schema: ConstructorParameters<typeof NodePgSession>[2];
    options: ConstructorParameters<typeof NodePgSession>[3];
  };
  const client = await db.$client.connect();
  let broken: Error | undefined;
  const run = async (statements: readonly Ready[]) => {
    try {
      return await sendMessage(client, statements);
    } catch (error) {
      // Its prepared statements would be refused again on this connection, so it goes with them.
      if (!(error instanceof Error && "code" in error) || isResultTypeChanged(error)) broken = error as Error;
      throw error;
    }
  };
  const ready = (statements: readonly Statement[]) =>
    statements.map((statement) => readyOf(base.dialect, statement));
  const connection: HeldConnection = {
    read: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(ready(statements))),
    async transaction(first, work) {
      let open = true;
      try {
        const results = await run([BEGIN, ...ready(first)]);
        const session = new NodePgSession(client, base.dialect, base.schema, base.options);
        const tx = new NodePgTransaction(base.dialect, session, base.schema) as unknown as Tx;
        const transaction: MessageTransaction = {
          tx,
          send: (statements) => (statements.length === 0 ? Promise.resolve([]) : run(ready(statements))),
          async commitWith(statements) {
            const sent = await run([...ready(statements), COMMIT]);
            open = false;
            // A COMMIT in a transaction an earlier message's error aborted commits nothing and says ROLLBACK.
            if (sent.at(-1)?.command !== "COMMIT") {
              throw new Error(
                "the transaction was rolled back at its commit: an earlier statement in it failed",
              );
            }
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

/**
 * The statements in one message on `db`: a transaction's own connection (inside drizzle's transaction or a
 * message transaction), or one the pool hands out for it, as a HeldConnection's read. Their results in order.
 */
export async function sendOn(db: DbOrTx, statements: readonly Statement[]): Promise<pg.QueryResult[]> {
  if (statements.length === 0) return [];
  const { client } = db._.session as unknown as { client: pg.Pool | pg.PoolClient };
  if (!("release" in client)) return onConnection(db as Db, (connection) => connection.read(statements));
  const { dialect } = db._.session as unknown as { dialect: PgDialect };
  return sendMessage(
    client,
    statements.map((statement) => readyOf(dialect, statement)),
  );
}

/** PostgreSQL refusing a prepared statement whose result columns a migration has changed since it was parsed. */
function isResultTypeChanged(error: unknown) {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === "0A000" &&
    error.message.includes("cached plan must not change result type")
  );
}

const BEGIN: Ready = { sql: "begin", params: [], name: "mt_begin" };
const COMMIT: Ready = { sql: "commit", params: [], name: "mt_commit" };

/** The statement's text with $n placeholders and their values. */
function readyOf(dialect: PgDialect, statement: Statement): Ready {
  if (is(statement, SQL)) return dialect.sqlToQuery(statement);
  return "built" in statement ? statement.built : statement.toSQL();
}

/** The pg connection's protocol writers a message uses (pg/lib/connection.js). */
type Connection = {
  stream: { cork?: () => void; uncork?: () => void; destroy: () => void };
  parse(query: { text: string; name: string; types: number[] }): void;
  bind(config: { statement: string; values: unknown[] }): void;
  describe(message: { type: "P"; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
  on(event: "parseComplete", listener: () => void): void;
  removeListener(event: "parseComplete", listener: () => void): void;
};

/** A column as PostgreSQL's RowDescription gives it (pg-protocol's field). */
type Field = { name: string; dataTypeID: number };

/** How a statement's rows are read: its columns, a parser for each, and a row with every column null. */
type Description = { fields: Field[]; parsers: ((raw: string) => unknown)[]; empty: Record<string, null> };

function describe(fields: Field[]): Description {
  const empty: Record<string, null> = {};
  for (const field of fields) empty[field.name] = null;
  return {
    fields,
    parsers: fields.map(
      (field) => RAW_DATES.getTypeParser(field.dataTypeID, "text") as (raw: string) => unknown,
    ),
    empty,
  };
}

const NO_COLUMNS = describe([]);

/**
 * What a connection has of the named statements: which are parsed, and how the rows of each are read. A new or
 * reconnected connection has none. A statement's columns are fixed when it is parsed (PostgreSQL refuses to run
 * it if they would change), so once described it is not described again.
 */
type Prepared = { parsed: Set<string>; described: Map<string, Description> };
const preparedOn = new WeakMap<pg.PoolClient, Prepared>();

/** pg's reading of a CommandComplete tag (pg/lib/result.js): the command, and the rows it touched. */
const TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/**
 * The statements as one message of the extended protocol: for each, Parse and Describe (a named statement
 * only the first time on this connection), Bind and Execute, then one Sync, written at once. PostgreSQL answers
 * after the Sync; at an error it skips every statement after it, as the simple protocol does in a message of
 * several, so none of them takes effect. A Sync per statement, as pg's own queries send, would have each
 * statement after an error refused separately, and PostgreSQL write an answer per statement.
 */
function sendMessage(client: pg.PoolClient, statements: readonly Ready[]): Promise<pg.QueryResult[]> {
  let prepared = preparedOn.get(client);
  if (!prepared) {
    prepared = { parsed: new Set(), described: new Map() };
    preparedOn.set(client, prepared);
  }
  const { parsed, described } = prepared;
  // Values are turned into what is sent before anything is written, so a value pg cannot send throws here.
  const values = statements.map((statement) => statement.params.map((value) => pgUtils.prepareValue(value)));
  return new Promise((resolve, reject) => {
    const results: pg.QueryResult[] = [];
    // Each Parse sent, in order (a name, or null for an unnamed statement): PostgreSQL answers each with
    // ParseComplete, so a statement is known to be parsed only once its answer comes.
    const parsing: (string | null)[] = [];
    let parseAnswers = 0;
    // How each statement's rows are read: known before it is sent, else from its RowDescription (none came by
    // its CommandComplete: it returns no rows).
    const descriptions: (Description | undefined)[] = statements.map(
      (statement) => statement.name && described.get(statement.name),
    ) as (Description | undefined)[];
    let connection: Connection | undefined;
    let failure: Error | undefined;
    const onParseComplete = () => {
      const name = parsing[parseAnswers++];
      if (name) parsed.add(name);
    };
    const current = () => {
      let result = results[results.length - 1];
      if (!result || result.command !== null) {
        result = { command: null as unknown as string, rowCount: null, oid: 0, rows: [], fields: [] };
        results.push(result);
      }
      return result;
    };
    const learn = (index: number, description: Description) => {
      descriptions[index] = description;
      const name = statements[index]?.name;
      if (name) described.set(name, description);
    };
    const finish = () => connection?.removeListener("parseComplete", onParseComplete);
    const message = {
      // What the bench's statement listing reads (pg reads only submit and the handlers below).
      text: statements.map((statement) => statement.sql).join(";\n"),
      submit(sent: Connection) {
        connection = sent;
        sent.on("parseComplete", onParseComplete);
        sent.stream.cork?.();
        try {
          statements.forEach((statement, index) => {
            const name = statement.name ?? "";
            // A statement used twice in one message (a stock update per product) is parsed by the first Parse.
            if (!name || !(parsed.has(name) || parsing.includes(name))) {
              sent.parse({ text: statement.sql, name, types: [] });
              parsing.push(name || null);
            }
            sent.bind({ statement: name, values: values[index] ?? [] });
            if (!descriptions[index]) sent.describe({ type: "P", name: "" });
            sent.execute({ portal: "" });
          });
          sent.sync();
        } finally {
          sent.stream.uncork?.();
        }
      },
      handleRowDescription(row: { fields: Field[] }) {
        current();
        learn(results.length - 1, describe(row.fields));
      },
      handleDataRow(row: { fields: (string | null)[] }) {
        const result = current();
        const description = descriptions[results.length - 1];
        if (failure) return;
        if (!description) {
          failure = new Error("PostgreSQL sent rows for a statement it did not describe");
          return;
        }
        try {
          const read: Record<string, unknown> = { ...description.empty };
          row.fields.forEach((raw, column) => {
            const field = description.fields[column] as Field;
            read[field.name] = raw === null ? null : description.parsers[column]?.(raw);
          });
          result.rows.push(read);
        } catch (error) {
          failure = error as Error;
        }
      },
      handleCommandComplete(complete: { text: string }) {
        const result = current();
        const index = results.length - 1;
        if (!descriptions[index]) learn(index, NO_COLUMNS);
        result.fields = (descriptions[index]?.fields ?? []) as unknown as pg.FieldDef[];
        const [, command = "", first, second] = TAG.exec(complete.text) ?? [];
        result.command = command;
        if (second) {
          result.oid = Number(first);
          result.rowCount = Number(second);
        } else if (first) result.rowCount = Number(first);
      },
      handleEmptyQuery() {
        current().command = "";
      },
      handlePortalSuspended() {},
      handleCopyInResponse(sent: { sendCopyFail(message: string): void }) {
        sent.sendCopyFail("a message transaction sends no data to copy");
      },
      handleCopyData() {},
      // PostgreSQL refused a statement (it skips the rest to the Sync), or the connection failed or timed out.
      handleError(error: Error) {
        finish();
        if (error.message === "Query read timeout") connection?.stream.destroy();
        message.callback(error);
      },
      handleReadyForQuery() {
        finish();
        message.callback(failure ?? null, results);
      },
      callback(error: Error | null, answered?: pg.QueryResult[]) {
        if (error) reject(error);
        else resolve(answered ?? []);
      },
    };
    client.query(message as unknown as pg.Submittable);
  });
}

/**
 * A built template: its text and name, and for each of its parameters either a constant or the placeholder it
 * is filled from (with the column's encoder, when it has one), worked out once so filling it costs a lookup.
 */
type Template = { sql: string; name: string; slots: Slot[] };
type Slot = { constant: unknown } | { placeholder: string; encoder: Param["encoder"] | null };
const templates = new Map<string, Template>();
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
  let template = templates.get(shape);
  if (!template) {
    const statement = build();
    const built = is(statement, SQL) ? templateDialect.sqlToQuery(statement) : statement.toSQL();
    // PostgreSQL keeps 63 bytes of a prepared statement's name, so a shape (often longer) is named by a number.
    template = { sql: built.sql, name: `mt_${templates.size}`, slots: built.params.map(slotOf) };
    templates.set(shape, template);
  }
  return { built: { sql: template.sql, params: fill(template.slots, values), name: template.name } };
}

/** What fills a parameter: itself, or a placeholder's value (through the parameter's encoder, if it has one). */
function slotOf(param: unknown): Slot {
  const placeholder = is(param, Placeholder)
    ? param
    : is(param, Param) && is(param.value, Placeholder)
      ? param.value
      : null;
  if (!placeholder) return { constant: param };
  return { placeholder: placeholder.name, encoder: is(param, Param) ? param.encoder : null };
}

/** drizzle's fillPlaceholders, but a null stays null (a column's encoder may not take one). */
function fill(slots: readonly Slot[], values: Record<string, unknown>) {
  return slots.map((slot) => {
    if ("constant" in slot) return slot.constant;
    if (!(slot.placeholder in values)) throw new Error(`no value for placeholder "${slot.placeholder}"`);
    const value = values[slot.placeholder];
    if (value === null || value === undefined || !slot.encoder) return value ?? null;
    return slot.encoder.mapToDriverValue(value);
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
