import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { format } from "node:util";
import pino from "pino";
import { createDb } from "../server/db/client.ts";
import { loadPinDirectory } from "../server/delivery/pin-directory.ts";
import { parseEnv } from "../server/env.ts";
import { log } from "../server/log.ts";
import { startShopWork } from "../server/serve.ts";
import { withOwnersShopName } from "../server/settings/settings.data.ts";
import { seedShopDetails } from "../server/shop/shop.data.ts";
import {
  createTestDatabase,
  GENEROUS_RATE_LIMITS,
  knowAccountDatabase,
  TEST_AUTH_SECRET,
} from "./database.ts";
import type { Shop } from "./fixtures.ts";

/** How long requests still open (a tab following its cart) may run on when the shop stops: tests are done. */
const STOP_GRACE_MS = 1_000;

/**
 * A shop of a test file's own, served from the test worker's process: the real app and its background work
 * (job worker, timers, LISTEN connections) on a database cloned from the template, listening on a free port
 * of 127.0.0.1, built as server/serve.ts builds one. It starts in well under a second where a shop process
 * (`startShop`) takes seconds to start and import the server, and the server's modules are loaded once per
 * worker. `env` is the file's environment on top of the test shop's (rate limits, the auth secret); with a
 * DATABASE_URL in it the shop runs on that database (another shop's, as two instances behind a proxy do),
 * which it neither clones nor drops.
 *
 * What differs from a shop process: `pid` is the worker's; `output()` is what the worker's logger (and
 * console) wrote while this shop ran, so lines of the worker's other work may be among them; the log level is
 * the worker's (warn, or LOG_LEVEL when the run was started with it), fixed when server/log.ts was first
 * loaded. A test of how the process starts or stops (its ready line, signals) keeps a shop process.
 */
export async function startShopInProcess(options: { env?: Record<string, string> } = {}): Promise<Shop> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const sharedUrl = options.env?.DATABASE_URL;
  const [dataDir, database] = await Promise.all([
    mkdtemp(path.join(tmpdir(), "shop-in-process-")),
    sharedUrl ? openDatabase(sharedUrl) : createTestDatabase(),
  ]);
  const output = captureOutput();
  try {
    const env = parseEnv({
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      ...GENEROUS_RATE_LIMITS,
      ...options.env,
      DATABASE_URL: database.url,
    });
    // As server/main.ts does at start: the environment's name, phone and e-mail are the shop's details.
    await seedShopDetails(database.db, await withOwnersShopName(database.db, env));
    const { pool, lifecycle, listener } = startShopWork(env, database.url);
    // Read once per worker (the directory is kept for the process), before the first PIN look-up.
    await loadPinDirectory();
    server.on("request", listener());
    // Test accounts are written straight into the shop's database (tests/accounts.ts).
    const forgetDatabase = knowAccountDatabase(url, database.db);
    let stopped: Promise<void> | undefined;
    return {
      url,
      dataDir,
      pid: process.pid,
      databaseUrl: database.url,
      output: output.text,
      stop() {
        stopped ??= (async () => {
          forgetDatabase();
          await lifecycle.shutdown({ server, graceMs: STOP_GRACE_MS, finally: [() => pool.end()] });
          output.stop();
          await database.drop();
          await rm(dataDir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    output.stop();
    server.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Another shop's database: a small pool to write test accounts with, closed (not dropped) when this shop stops. */
function openDatabase(url: string) {
  const { db, pool } = createDb(url, { max: 2 });
  return { db, url, drop: () => pool.end() };
}

type ConsoleMethod = "log" | "info" | "warn" | "error" | "debug";
const CONSOLE_METHODS: ConsoleMethod[] = ["log", "info", "warn", "error", "debug"];

/** What every shop of the worker running now keeps of the output: the worker's shared shop and a file's own. */
const listeners = new Set<(text: string, fromLogger: boolean) => void>();
let restore: (() => void) | undefined;

/** Sends the worker's logger and console lines to `listeners` while any shop runs; undone when the last stops. */
function divertOutput() {
  const stream = (log as unknown as Record<symbol, { write: (line: string) => boolean }>)[
    pino.symbols.streamSym
  ];
  const write = stream?.write;
  if (stream && write) {
    stream.write = (line: string) => {
      for (const listener of listeners) listener(line, true);
      return true;
    };
  }
  const originals = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const [method, original] of originals) {
    console[method] = (...args: unknown[]) => {
      const line = `${format(...args)}\n`;
      for (const listener of listeners) listener(line, false);
      original.apply(console, args);
    };
  }
  return () => {
    if (stream && write) stream.write = write;
    for (const [method, original] of originals) console[method] = original;
  };
}

/**
 * Keeps what the worker's logger and console write from now until stop(): a shop process's output, as far as
 * one process can tell its shop's lines from the rest (two shops running at once both keep a line). The
 * logger's lines are kept only, as a shop process's were (its expected warnings, such as a provider's
 * refusal, are no news in the run's report); the console's still reach the report too.
 */
function captureOutput() {
  let text = "";
  const listener = (line: string) => {
    text += line;
  };
  restore ??= divertOutput();
  listeners.add(listener);
  return {
    text: () => text,
    stop() {
      listeners.delete(listener);
      if (listeners.size > 0) return;
      restore?.();
      restore = undefined;
    },
  };
}
