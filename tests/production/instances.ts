import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runServer } from "../../scripts/build-server.ts";
import { findFreePort } from "../../server/db/embedded.ts";
import { GENEROUS_RATE_LIMITS, jsonRequest, TEST_AUTH_SECRET } from "../database.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** One shop process (the built server, as `npm start` runs it) of several sharing a database, as production runs them. */
export type Instance = {
  name: string;
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  /** Whether the process has ended (crashed, unless stop() ended it). */
  exited: () => boolean;
  /** Waits until /api/ready answers 200. */
  ready: (timeoutMs?: number) => Promise<void>;
  /** SIGTERM, then the exit code and signal (SIGKILL after `killAfterMs`). */
  stop: (killAfterMs?: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export async function startInstance(
  name: string,
  env: Record<string, string>,
  options: { waitReady?: boolean; port?: number } = {},
): Promise<Instance> {
  const port = options.port ?? (await findFreePort());
  const dataDir = await mkdtemp(path.join(tmpdir(), `shop-${name}-`));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, runServer, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      ...GENEROUS_RATE_LIMITS,
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const instance: Instance = {
    name,
    url,
    port,
    dataDir,
    child,
    output: () => output,
    exited,
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exited())
          throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
        try {
          if ((await fetch(`${url}/api/ready`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${output}`);
    },
    stop(killAfterMs = 20_000) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(force);
          rm(dataDir, { recursive: true, force: true }).finally(() =>
            resolve({ code: child.exitCode, signal: child.signalCode }),
          );
        };
        const force = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
        if (exited()) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
      });
    },
  };
  if (options.waitReady ?? true) await instance.ready();
  return instance;
}

/** The answer to one API call over HTTP: status and JSON body, or the network error's code. */
export type Answer = { status: number; body: unknown; ms: number } | { status: 0; error: string; ms: number };

export async function callHttp(
  baseUrl: string,
  method: string,
  apiPath: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(
      `${baseUrl}${apiPath}`,
      jsonRequest({
        method,
        body: options.body,
        cookie: options.cookie,
        headers: { Origin: baseUrl, ...options.headers },
      }),
    );
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text, which the checks report
    }
    return { status: response.status, body, ms: Date.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 0, error: cause?.code ?? (error as Error).message, ms: Date.now() - started };
  }
}

/** Whether a body is the shop's error shape. */
export const isErrorShape = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { error?: { code?: unknown } }).error?.code === "string" &&
  typeof (body as { error?: { message?: unknown } }).error?.message === "string";
