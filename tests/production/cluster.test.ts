import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEmbeddedPostgres } from "../../server/db/embedded.ts";
import { NOTIFY_LISTENER_APPLICATION_NAME } from "../../server/notify/notify-listener.ts";
import { signUpViaHttp, TEST_PASSWORD } from "../accounts.ts";
import { callHttp, type Instance, startInstance } from "./instances.ts";

/**
 * `SHOP_WORKERS=2 npm start` as a shopper meets it (docs/decisions/073): one port, two worker processes behind
 * it, the embedded database started once by the primary. Which process answered a request is read from its
 * access line (every log line names its pid; the test is the trusted proxy, so the line carries the test's
 * request id): nothing in an answer says which worker gave it.
 */

type Line = { pid: number; msg: string; requestId?: string; workerPid?: number };

const METRICS_TOKEN = "two-workers-metrics-token";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a shop of two worker processes", () => {
  let shop: Instance;

  const lines = (): Line[] =>
    shop
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Line);
  const started = () => lines().filter((line) => line.msg === "shop worker started");
  const readyPids = () =>
    lines()
      .filter((line) => line.msg.startsWith("Shop ready"))
      .map((line) => line.pid);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  async function until(what: string, check: () => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${shop.output()}`);
      await sleep(50);
    }
  }
  /** The pid in the access line of the request with this id (written as the answer's headers go out). */
  async function answeredBy(requestId: string) {
    let pid: number | undefined;
    await until(
      `the access line of ${requestId}`,
      () => {
        pid = lines().find((line) => line.requestId === requestId)?.pid;
        return pid !== undefined;
      },
      5_000,
    );
    return pid as number;
  }
  /** Plain GETs, each on a connection of its own, until both workers have answered; the pids that did. */
  async function answeringPids(needed: number[]) {
    const seen = new Set<number>();
    for (let round = 0; round < 50 && !needed.every((pid) => seen.has(pid)); round++) {
      const ids = Array.from({ length: 10 }, () => randomUUID());
      const statuses = await Promise.all(
        ids.map(async (id) => {
          const response = await fetch(`${shop.url}/api/products`, {
            headers: { "X-Request-Id": id, Connection: "close" },
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
      for (const id of ids) seen.add(await answeredBy(id));
    }
    return seen;
  }

  beforeAll(async () => {
    shop = await startInstance(
      "cluster",
      { SHOP_WORKERS: "2", TRUSTED_PROXIES: "127.0.0.1", METRICS_TOKEN },
      { waitReady: false },
    );
    await until("two workers ready", () => readyPids().length === 2, 110_000);
  }, 120_000);
  afterAll(async () => {
    await shop?.stop();
  });

  it("has each worker listen for session and cart changes from its start, not from its first shopper", async () => {
    // Session copies are trusted one cookie lifetime after the listener starts (decision 069): a worker that
    // waited for its first signed-in request read every session from the database for a minute after it.
    const database = await connectEmbeddedPostgres(shop.dataDir);
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const listeners = async () =>
        Number(
          (
            await pool.query<{ n: string }>(
              "select count(*) as n from pg_stat_activity where application_name = $1",
              [NOTIFY_LISTENER_APPLICATION_NAME],
            )
          ).rows[0]?.n,
        );
      let count = await listeners();
      for (let tries = 0; tries < 50 && count < 2; tries++) {
        await sleep(100);
        count = await listeners();
      }
      expect(count).toBe(2);
    } finally {
      await pool.end();
      await database.stop();
    }
  });

  it("serves from both workers, never from the primary, and says nothing of it to shoppers", async () => {
    const workers = started().map((line) => line.workerPid as number);
    const primary = started()[0]?.pid;
    expect(workers).toHaveLength(2);
    expect(new Set(readyPids())).toEqual(new Set(workers));
    const seen = await answeringPids(workers);
    expect(seen).toEqual(new Set(workers));
    expect(seen.has(primary as number)).toBe(false);

    const response = await fetch(`${shop.url}/api/products`);
    const told = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
    for (const pid of workers) expect(told).not.toMatch(new RegExp(`\\b${pid}\\b`));
    expect(told).not.toMatch(/worker/i);
  });

  it("pushes a cart change made through one worker to a tab streaming from the other within 5 s", async () => {
    const shopper = await signUpViaHttp(shop.url, `two-workers-${randomUUID()}@example.com`);
    const workers = started().map((line) => line.workerPid as number);
    type Tab = { pid: number; events: string[]; request: http.ClientRequest };
    const tabs: Tab[] = [];
    const openTab = () =>
      new Promise<Tab>((resolve, reject) => {
        const requestId = randomUUID();
        const request = http.get(
          `${shop.url}/api/cart/events`,
          {
            agent: false,
            headers: { Cookie: shopper.cookie, Accept: "text/event-stream", "X-Request-Id": requestId },
          },
          (response) => {
            expect(response.statusCode).toBe(200);
            const tab: Tab = { pid: 0, events: [], request };
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              text += chunk;
              const messages = text.split("\n\n");
              text = messages.pop() ?? "";
              tab.events.push(...messages);
              if (tab.events.length > 0 && tab.pid === 0) {
                answeredBy(requestId).then((pid) => {
                  tab.pid = pid;
                  resolve(tab);
                }, reject);
              }
            });
          },
        );
        request.on("error", reject);
      });
    try {
      for (
        let round = 0;
        round < 20 && !workers.every((pid) => tabs.some((tab) => tab.pid === pid));
        round++
      ) {
        tabs.push(await openTab());
      }
      expect(new Set(tabs.map((tab) => tab.pid))).toEqual(new Set(workers));
      const firstVersion = (tab: Tab) =>
        JSON.parse(
          tab.events[0]
            ?.split("\n")
            .find((line) => line.startsWith("data: "))
            ?.slice("data: ".length) ?? "{}",
        ).version;
      expect(tabs.every((tab) => firstVersion(tab) === 0)).toBe(true);

      const requestId = randomUUID();
      const changedAt = Date.now();
      const added = await callHttp(shop.url, "POST", "/api/cart/items", {
        cookie: shopper.cookie,
        body: { id: "face-glow-oil", kind: "product" },
        headers: { "X-Request-Id": requestId },
      });
      expect(added.status).toBe(200);
      const changedBy = await answeredBy(requestId);
      const elsewhere = tabs.filter((tab) => tab.pid !== changedBy);
      expect(elsewhere.length).toBeGreaterThan(0);
      await until(
        "the change on every tab of the other worker",
        () => elsewhere.every((tab) => tab.events.some((event) => /"version":[1-9]/.test(event))),
        5_000,
      );
      expect(Date.now() - changedAt).toBeLessThan(5_000);
    } finally {
      for (const tab of tabs) tab.request.destroy();
    }
  });

  it("counts the requests of both workers in one scrape of /metrics, whichever worker answers it", async () => {
    const workers = started().map((line) => line.workerPid as number);
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const requestId = randomUUID();
      const response = await fetch(`${shop.url}${path}`, {
        headers: { ...headers, "X-Request-Id": requestId, Connection: "close" },
      });
      return { status: response.status, text: await response.text(), pid: await answeredBy(requestId) };
    };
    const productsServed = (text: string) =>
      Number(
        text
          .split("\n")
          .find(
            (line) =>
              line.startsWith("shop_http_requests_total{") &&
              line.includes('route="/api/products"') &&
              line.includes('method="GET"') &&
              line.includes('status="200"'),
          )
          ?.split(" ")
          .at(-1) ?? 0,
      );
    const scrape = () => get("/metrics", { Authorization: `Bearer ${METRICS_TOKEN}` });

    const before = await scrape();
    expect(before.status).toBe(200);
    const servedBy = new Set<number>();
    let sent = 0;
    while (sent < 100 && !workers.every((pid) => servedBy.has(pid))) {
      const answer = await get("/api/products");
      expect(answer.status).toBe(200);
      servedBy.add(answer.pid);
      sent++;
    }
    expect(servedBy).toEqual(new Set(workers));

    const scrapedBy = new Set<number>();
    for (let round = 0; round < 40 && !workers.every((pid) => scrapedBy.has(pid)); round++) {
      const after = await scrape();
      expect(after.status).toBe(200);
      expect(productsServed(after.text) - productsServed(before.text)).toBe(sent);
      // The jobs gauge is one table read by each worker: reported once, not once per worker.
      expect(after.text).toMatch(/^shop_jobs\{status="queued"\} \d+$/m);
      scrapedBy.add(after.pid);
    }
    expect(scrapedBy).toEqual(new Set(workers));
  });

  it("knows a shopper's session copy on both workers once either has seen it accepted", async () => {
    const workers = started().map((line) => line.workerPid as number);
    const shopper = await signUpViaHttp(shop.url, `two-workers-copy-${randomUUID()}@example.com`);
    expect(shopper.cookie).toContain("session_data=");
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const requestId = randomUUID();
      const response = await fetch(`${shop.url}${path}`, {
        headers: { ...headers, "X-Request-Id": requestId, Connection: "close" },
      });
      return {
        status: response.status,
        text: await response.text(),
        setCookie: response.headers.getSetCookie(),
        pid: await answeredBy(requestId),
      };
    };
    const sessionsRead = (text: string, by: string) =>
      Number(
        text
          .split("\n")
          .find((line) => line.startsWith(`shop_signed_in_sessions_total{by="${by}"}`))
          ?.split(" ")
          .at(-1) ?? 0,
      );
    const scrape = async () => {
      const answer = await get("/metrics", { Authorization: `Bearer ${METRICS_TOKEN}` });
      expect(answer.status).toBe(200);
      return { memo: sessionsRead(answer.text, "memo"), checked: sessionsRead(answer.text, "better_auth") };
    };
    const before = await scrape();
    // A new session, whose copy no worker has seen: signing in answers with it and remembers nothing.
    const signedIn = await fetch(`${shop.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url, Connection: "close" },
      body: JSON.stringify({ email: shopper.email, password: TEST_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((each) => each.split(";")[0])
      .join("; ");
    expect(cookie).toContain("session_data=");
    // The first request's worker has Better Auth check the copy, and hands it to the other within milliseconds.
    const first = await get("/api/cart", { Cookie: cookie });
    expect(first.status).toBe(200);
    expect(first.setCookie).toEqual([]);
    await sleep(200);
    const servedBy = new Set<number>([first.pid]);
    let sent = 1;
    while (sent < 100 && !workers.every((pid) => servedBy.has(pid))) {
      const answer = await get("/api/cart", { Cookie: cookie });
      expect(answer.status).toBe(200);
      servedBy.add(answer.pid);
      sent++;
    }
    expect(servedBy).toEqual(new Set(workers));
    const after = await scrape();
    // Checked once in all, by the first worker; the other knew it from there.
    expect(after.checked - before.checked).toBe(1);
    expect(after.memo - before.memo).toBe(sent - 1);
  });

  it("replaces a killed worker, answering all the while from the other", async () => {
    const [victim, survivor] = started().map((line) => line.workerPid as number) as [number, number];
    // Requests keep coming, one after another, while the worker dies: one it held may be lost, never the port.
    const answers: { sentAt: number; status: number }[] = [];
    let hammering = true;
    const hammer = (async () => {
      while (hammering) {
        const sentAt = Date.now();
        const answer = await callHttp(shop.url, "GET", "/api/products", { headers: { Connection: "close" } });
        answers.push({ sentAt, status: answer.status });
        await sleep(20);
      }
    })();
    try {
      await sleep(300);
      process.kill(victim, "SIGKILL");
      await until("the worker gone", () => !alive(victim), 5_000);
      await until(
        "the primary saying so",
        () => lines().some((line) => line.msg.startsWith("a shop worker ended") && line.workerPid === victim),
        5_000,
      );
      const heardAt = Date.now();
      await until("the replacement ready", () => readyPids().length === 3, 60_000);
      hammering = false;
      await hammer;
      const meanwhile = answers.filter((answer) => answer.sentAt >= heardAt);
      expect(meanwhile.length).toBeGreaterThan(10);
      expect(meanwhile.filter((answer) => answer.status !== 200)).toEqual([]);
      expect(answers.filter((answer) => answer.status !== 200).length).toBeLessThanOrEqual(1);
    } finally {
      hammering = false;
      await hammer;
    }
    const replacement = started().at(-1)?.workerPid as number;
    expect(started()).toHaveLength(3);
    expect(replacement).not.toBe(victim);
    expect(await answeringPids([survivor, replacement])).toEqual(new Set([survivor, replacement]));
  });

  it("ends every worker and then the embedded database on SIGTERM, exiting 0", async () => {
    const workers = started()
      .map((line) => line.workerPid as number)
      .filter(alive);
    expect(workers).toHaveLength(2);
    const postmaster = Number(
      readFileSync(path.join(shop.dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0],
    );
    expect(alive(postmaster)).toBe(true);
    const { code, signal } = await shop.stop();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(workers.filter(alive)).toEqual([]);
    expect(alive(postmaster)).toBe(false);
    const stoppedWorkers = lines().filter((line) => line.msg === "stopped" && workers.includes(line.pid));
    expect(stoppedWorkers).toHaveLength(2);
    const order = lines().map((line) => `${line.pid} ${line.msg}`);
    const primaryStopped = order.lastIndexOf(`${started()[0]?.pid} stopped`);
    expect(primaryStopped).toBe(order.length - 1);
  });
});
