import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { log, serializeError } from "../log.ts";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof createDb>["db"];

/** A transaction, as `db.transaction` hands it to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What a query that may run inside a caller's transaction or on its own takes. */
export type DbOrTx = Db | Tx;

/**
 * Whether the error is PostgreSQL refusing a duplicate (23505), on the named constraint when one is given.
 * Drizzle wraps the driver's error, so its cause is looked at too.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const details = [error, (error as { cause?: unknown } | undefined)?.cause] as ({
    code?: string;
    constraint?: string;
  } | null)[];
  return details.some(
    (each) => each?.code === "23505" && (constraint === undefined || each.constraint === constraint),
  );
}

export type DbOptions = {
  max?: number;
  /**
   * How long an unused connection stays open (pg's 10 s when not given). A backend's first orders cost PostgreSQL
   * about 50 ms of CPU more than later ones (the order triggers compiled, their statements planned), so a pool
   * that closes connections after a quiet moment pays that again at the next busy one (docs/decisions/069).
   */
  idleTimeoutMs?: number;
  /** Longest wait for a connection (a new one, or a free one from a full pool). */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer; the client gives up on an answer a little later. */
  statementTimeoutMs?: number;
};

/** Grace on top of statement_timeout before the client decides the server itself is gone (frozen). */
const READ_GRACE_MS = 2_000;

export function createDb(url: string, options: DbOptions = {}) {
  const { statementTimeoutMs } = options;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: options.idleTimeoutMs,
    keepAlive: true,
    ...(statementTimeoutMs
      ? {
          statement_timeout: statementTimeoutMs,
          // A frozen server never answers, and a frozen client must not hold row locks forever.
          query_timeout: statementTimeoutMs + READ_GRACE_MS,
          idle_in_transaction_session_timeout: statementTimeoutMs * 3,
        }
      : {}),
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on("error", (error) => log.warn({ err: serializeError(error) }, "idle database connection lost"));
  pool.on("connect", (client) => {
    // A checked-out client whose connection dies between two queries (pg_terminate_backend, a restart)
    // emits "error" too; with no listener that would end the process.
    client.on("error", (error) =>
      log.warn({ err: serializeError(error) }, "database connection lost while in use"),
    );
    if (statementTimeoutMs) dropConnectionOnReadTimeout(client);
  });
  releaseClientOnFailedBegin(pool);
  const db = drizzle(pool, { schema });
  return { db, pool };
}

/**
 * drizzle's transaction() (0.45) sends BEGIN before the try whose finally gives the client back, so a BEGIN
 * that fails (its connection cut by pg_terminate_backend or a restart just as it was handed out) keeps that
 * client checked out for the life of the process: a few of them and every request waits for a connection
 * that never comes, long after the database is back (drizzle-team/drizzle-orm#6241, open). A client whose
 * first query after it was handed out is drizzle's BEGIN, and fails, is given back here as broken, so the pool
 * drops it; drizzle itself never gives that one back.
 */
function releaseClientOnFailedBegin(pool: pg.Pool) {
  const fresh = new WeakMap<pg.PoolClient, boolean>();
  pool.on("acquire", (client) => {
    if (!fresh.has(client)) {
      // Another wrapper of this client's own (dropConnectionOnReadTimeout), else pg's method looked up at each
      // call, so whatever wraps pg.Client's prototype later still sees every query.
      const own = Object.hasOwn(client, "query") ? client.query.bind(client) : null;
      const query = (...args: unknown[]): unknown =>
        own ? own(...(args as [string])) : Object.getPrototypeOf(client).query.apply(client, args);
      client.query = ((...args: unknown[]) => {
        const first = fresh.get(client);
        fresh.set(client, false);
        const result = query(...args);
        const config = args[0] as { text?: unknown } | string | undefined;
        const text = typeof config === "string" ? config : config?.text;
        if (first && typeof text === "string" && /^begin\b(?!;)/i.test(text) && result instanceof Promise) {
          result.catch((error: Error) => client.release(error));
        }
        return result;
      }) as typeof client.query;
    }
    fresh.set(client, true);
  });
}

/**
 * pg's query_timeout answers the caller but leaves the query running on the connection, which then goes
 * back to the pool still inside its transaction: the next user would commit the abandoned half of it. The
 * connection is cut instead, so PostgreSQL rolls the transaction back and the pool replaces the client.
 */
function dropConnectionOnReadTimeout(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const connection = (client as unknown as { connection: { stream: { destroy: () => void } } }).connection;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: Error) => {
        if (error?.message === "Query read timeout") connection.stream.destroy();
      });
    }
    return result;
  }) as typeof client.query;
}

export const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

export async function migrateDatabase(db: Db) {
  await migrate(db, { migrationsFolder });
}

/** Any number to name the shop's startup lock by; only instances of this shop take it. */
const STARTUP_LOCK = 7_341_902_118;

/**
 * Runs `work` (migrations, the catalogue seed) while holding a PostgreSQL advisory lock, so instances
 * started together on one database take turns instead of racing to create the same schema.
 */
export async function withStartupLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", (error) => log.warn({ err: serializeError(error) }, "startup lock connection lost"));
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    return await work();
  } finally {
    // Closing the session releases the lock whatever happened.
    await client.end().catch(() => {});
  }
}
