import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createApp } from "../server/app.ts";
import { createDb, type Db } from "../server/db/client.ts";
import { createDeps } from "../server/deps.ts";
import { parseEnv } from "../server/env.ts";
import { jobHandlers } from "../server/job-handlers.ts";
import { startJobWorker } from "../server/jobs/job-queue.ts";
import { seedShopDetails } from "../server/shop/shop.data.ts";
import { TEMPLATE_DATABASE, withDatabase } from "./database-url.ts";

export const TEST_AUTH_SECRET = "test-secret-that-is-long-enough-for-better-auth";

/** The origin of the test app (its PUBLIC_URL): the API takes state-changing requests only from it. */
export const TEST_ORIGIN = "http://localhost:3000";

/** A fresh database, cloned from the migrated and seeded template: each test file gets its own. */
export async function createTestDatabase() {
  const serverUrl = inject("testDatabaseServer");
  const name = `shop_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const { db, pool } = createDb(url, { max: 20 });
  return {
    db,
    pool,
    url,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Every in-process request comes from one address, so a test file that signs up a dozen shoppers would
 * hit the real limits; the rate-limit tests pass their own, low ones.
 */
export const GENEROUS_RATE_LIMITS = {
  AUTH_RATE_LIMIT_SIGN_IN: "1000",
  AUTH_RATE_LIMIT_SIGN_UP: "1000",
  AUTH_RATE_LIMIT_EMAIL: "1000",
  AUTH_ACCOUNT_SLOW_AFTER: "1000",
  AUTH_ACCOUNT_LOCK_AFTER: "1000",
  AUTH_EMAIL_PER_ADDRESS: "1000",
  AUTH_SMS_PER_NUMBER: "1000",
  AUTH_SMS_PER_CLIENT: "1000",
  GUEST_ORDER_PER_CLIENT: "1000",
  GUEST_ORDER_PER_CONTACT: "1000",
  GUEST_ORDER_LINK_MISSES_PER_CLIENT: "1000",
  // Every tab a browser test opens follows its cart from 127.0.0.1.
  STREAMS_PER_CLIENT: "1000",
};

/**
 * The database behind each test app (by its Hono app) and each running test shop (by its address), so test
 * accounts can be written straight into it (tests/accounts.ts).
 */
const accountDatabases = new Map<object | string, Db>();

export function accountDatabaseOf(shop: object | string): Db | undefined {
  return accountDatabases.get(shop);
}

export function knowAccountDatabase(shop: object | string, db: Db) {
  accountDatabases.set(shop, db);
  return () => {
    accountDatabases.delete(shop);
  };
}

/** The whole API on its own database, called through app.request(). */
export async function createTestApp(overrides: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "shop-app-"));
  const env = parseEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    PUBLIC_URL: TEST_ORIGIN,
    JOB_POLL_MS: "200",
    JOB_RETRY_BASE_MS: "50",
    ...GENEROUS_RATE_LIMITS,
    ...overrides,
  });
  // As server/main.ts does at start: the environment's name, phone and e-mail are the shop's details.
  await seedShopDetails(database.db, env);
  const deps = createDeps({ db: database.db, env });
  const app = createApp(deps);
  const forgetDatabase = knowAccountDatabase(app, database.db);
  // The shop's real worker, so a test reads a mail the way a shopper gets it: sent off the request path.
  const stopWorker = startJobWorker({
    db: database.db,
    signal: deps.jobs,
    handlers: jobHandlers(deps),
    pollMs: env.JOB_POLL_MS,
    retryBaseMs: env.JOB_RETRY_BASE_MS,
  });
  return {
    app,
    deps,
    db: database.db,
    env,
    dataDir,
    async close() {
      forgetDatabase();
      await stopWorker();
      await deps.catalogue.stop();
      await deps.live.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A test file's own shop: created before its tests and dropped after them. The object is filled in by the
 * time the first test runs, so it can be named at the top of the file.
 */
export function setUpTestApp(overrides: Record<string, string> = {}): TestApp {
  const shop = {} as TestApp;
  beforeAll(async () => {
    Object.assign(shop, await createTestApp(overrides));
  });
  afterAll(() => shop.close?.());
  return shop;
}

/**
 * A second instance of a test app's shop on the same database, with its own pool and listener, as a second
 * process would be: what one instance changes, the other must see. end() stops it.
 */
export function startSecondInstance(shop: TestApp) {
  const { db, pool } = createDb(shop.env.DATABASE_URL ?? "", { max: 5 });
  const deps = createDeps({ db, env: shop.env });
  const app = createApp(deps);
  const forgetDatabase = knowAccountDatabase(app, db);
  return {
    app,
    deps,
    async end() {
      forgetDatabase();
      await deps.catalogue.stop();
      await deps.live.stop();
      await pool.end();
    },
  };
}

/**
 * Hands every statement `instance`'s pool sends to `intercept`, with its text (trimmed), the client sending it,
 * and `send`, which sends it (what pg's query returns for a pipelined message is no promise: such a message is
 * answered through its own callback). For tests that cut a connection at a chosen statement.
 */
export function interceptStatements(
  instance: { deps: { db: Db } },
  intercept: (text: string, client: pg.PoolClient, send: () => unknown) => unknown,
) {
  const wrapped = new WeakSet<object>();
  instance.deps.db.$client.on("acquire", (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === "string" ? first : (first?.text ?? "")).trim();
      return intercept(text, client, () => query(...args));
    }) as typeof client.query;
  });
}

/** The process id of `client`'s backend. */
export const backendPid = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;

/** Ends `client`'s backend from another connection, as an administrator or a failover does (waiting up to 5 s). */
export function terminateBackend(db: Db, client: pg.PoolClient) {
  return db.execute(sql`select pg_terminate_backend(${backendPid(client)}::int, 5000)`);
}

/**
 * Options for app.request() as the shop's own web app sends them: a JSON body when there is one, the
 * shopper's session cookie when given, and on every state-changing request the shop's Origin and the JSON
 * content type (the API refuses such a request without them, body or not).
 */
export function jsonRequest(
  init: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): RequestInit {
  const method = init.method ?? "GET";
  const changesState = method !== "GET" && method !== "HEAD";
  return {
    method,
    headers: {
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(changesState ? { Origin: TEST_ORIGIN } : {}),
      ...(changesState || init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  };
}

/** One API call as a test reads it: the status and the parsed JSON answer. */
export async function callApi(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  method: string,
  path: string,
  options: { as?: { cookie: string }; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await app.request(
    path,
    jsonRequest({ method, body: options.body, cookie: options.as?.cookie, headers: options.headers }),
  );
  return { status: response.status, body: await response.json() };
}

/**
 * A test file's `/api` caller: as `defaultAccount()` (read at each call, so after beforeAll has signed it up)
 * unless given another account, and signed out for null.
 */
export function apiCaller(
  shop: { app: Parameters<typeof callApi>[0] },
  defaultAccount: () => { cookie: string } | null = () => null,
) {
  return (method: string, path: string, body?: unknown, as: { cookie: string } | null = defaultAccount()) =>
    callApi(shop.app, method, `/api${path}`, { body, ...(as ? { as } : {}) });
}
