import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp, startSecondInstance, type TestApp } from "../../tests/database.ts";
import { NOTIFY_LISTENER_APPLICATION_NAME } from "./notify-listener.ts";

/**
 * An instance that starts (or whose listener reconnects) has not heard the revocations made before: it reads
 * the recent ones from session_revocations right after LISTEN (docs/decisions/069), so it refuses a copy
 * revoked before it listened and trusts every other copy at once, without a database read.
 */
let shop: TestApp;
let kept: TestAccount;
let gone: TestAccount;
const ORIGINAL_ADDRESS = "198.51.100.20";
const CHANGED_ADDRESS = "203.0.113.7";

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Answers `path` on `app` and gives back the statements `pool` was asked for on the request's behalf: those
 * sent from its own async context, not those of the instance's other work running meanwhile (a listener's
 * reconnect settling, a load another request began).
 */
async function queriesOfRequest(
  pool: { query: (...args: never[]) => unknown },
  request: () => Promise<unknown>,
) {
  const asked: string[] = [];
  const ours = new AsyncLocalStorage<true>();
  const query = pool.query;
  pool.query = ((...args: never[]) => {
    if (ours.getStore()) {
      const first = args[0] as unknown as string | { text?: string };
      asked.push(typeof first === "string" ? first : (first?.text ?? ""));
    }
    return query.apply(pool, args);
  }) as typeof pool.query;
  try {
    return { answer: await ours.run(true, request), asked };
  } finally {
    pool.query = query;
  }
}

type App = { request: (path: string, init?: RequestInit) => Response | Promise<Response> };

/** The cookies a browser holds after reading its session once: the token and a signed copy. */
async function withCopy(app: App, cookie: string) {
  const response = await app.request("/api/auth/get-session", { headers: { Cookie: cookie } });
  const cookies = new Map(cookie.split("; ").map((pair) => pair.split(/=(.*)/s, 2) as [string, string]));
  for (const line of response.headers.getSetCookie()) {
    const [name = "", value = ""] = (line.split(";")[0] ?? "").split(/=(.*)/s, 2);
    cookies.set(name, value);
  }
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The address the session was made from as the answer tells it: the copy's, unless the database was read. */
async function addressSeen(app: App, cookie: string) {
  const response = await app.request("/api/auth/get-session", { headers: { Cookie: cookie } });
  const body = (await response.json()) as { session: { ipAddress: string | null } } | null;
  return body ? body.session.ipAddress : null;
}

/**
 * Both accounts with a fresh copy labelled with a stamp heard just now (a name change is announced), their
 * sessions' address known; then the address changed in the database, which nothing announces.
 */
async function copiesOfBoth() {
  const labels = [kept, gone].map((account) => shop.deps.live.sessionVersion(account.userId));
  await shop.db.execute(
    sql`update users set name = name || '.' where id in (${kept.userId}, ${gone.userId})`,
  );
  await until(() =>
    [kept, gone].every((account, i) => shop.deps.live.sessionVersion(account.userId) !== labels[i]),
  );
  await shop.db.execute(
    sql`update sessions set ip_address = ${ORIGINAL_ADDRESS} where user_id in (${kept.userId}, ${gone.userId})`,
  );
  const copies = {
    kept: await withCopy(shop.app, kept.cookie),
    gone: await withCopy(shop.app, gone.cookie),
  };
  await shop.db.execute(
    sql`update sessions set ip_address = ${CHANGED_ADDRESS} where user_id = ${kept.userId}`,
  );
  return copies;
}

beforeAll(async () => {
  shop = await createTestApp();
  shop.deps.live.listening();
  await until(() => shop.deps.live.listening());
  kept = await signUpViaApp(shop.app, "kept@example.in");
  gone = await signUpViaApp(shop.app, "gone@example.in");
}, 60_000);

afterAll(() => shop?.close());

describe("an instance that starts listening", () => {
  it("refuses a copy revoked before it started and trusts an unrevoked one at once", async () => {
    const copies = await copiesOfBoth();
    // The instance that wrote them answers the kept one from its copy.
    expect(await addressSeen(shop.app, copies.kept)).toBe(ORIGINAL_ADDRESS);
    await shop.db.execute(sql`delete from sessions where user_id = ${gone.userId}`);

    const restarted = startSecondInstance(shop);
    try {
      restarted.deps.live.listening();
      await until(() => restarted.deps.live.listening());
      expect(await addressSeen(restarted.app, copies.gone)).toBeNull();
      // Answered from the copy, with no query at all: the database would have said the changed address.
      const { answer, asked } = await queriesOfRequest(restarted.deps.db.$client, () =>
        addressSeen(restarted.app, copies.kept),
      );
      expect(answer).toBe(ORIGINAL_ADDRESS);
      expect(asked).toEqual([]);
    } finally {
      await restarted.end();
    }
  });

  it("reads the stamps again when its listener reconnects", async () => {
    gone = await signUpViaApp(shop.app, "gone-again@example.in");
    const copies = await copiesOfBoth();
    const second = startSecondInstance(shop);
    try {
      second.deps.live.listening();
      await until(() => second.deps.live.listening());
      expect(await addressSeen(second.app, copies.kept)).toBe(ORIGINAL_ADDRESS);
      expect(await addressSeen(second.app, copies.gone)).toBe(ORIGINAL_ADDRESS);

      await shop.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${NOTIFY_LISTENER_APPLICATION_NAME} and datname = current_database()`);
      await until(() => !second.deps.live.listening());
      // Revoked while nobody listens: no instance hears it.
      await shop.db.execute(sql`delete from sessions where user_id = ${gone.userId}`);
      await until(() => second.deps.live.listening());
      expect(await addressSeen(second.app, copies.gone)).toBeNull();
      expect(await addressSeen(second.app, copies.kept)).toBe(ORIGINAL_ADDRESS);
    } finally {
      await second.end();
    }
  });

  it("trusts nothing while a reconnect's read of the stamps is held up or cut, and refuses what was revoked meanwhile", async () => {
    gone = await signUpViaApp(shop.app, "gone-while-loading@example.in");
    const copies = await copiesOfBoth();
    const second = startSecondInstance(shop);
    const blocker = await shop.db.$client.connect();
    const listenerPids = async () =>
      (
        await shop.db.execute<{ pid: number }>(sql`select pid from pg_stat_activity
          where application_name = ${NOTIFY_LISTENER_APPLICATION_NAME} and datname = current_database()`)
      ).rows.map((row) => row.pid);
    /** The listener connections waiting on the lock: their read of the stamps is under way. */
    const loadsWaiting = async () =>
      (
        await shop.db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
          where application_name = ${NOTIFY_LISTENER_APPLICATION_NAME} and wait_event_type = 'Lock'`)
      ).rows[0]?.n ?? 0;
    let revoked: Promise<unknown> | undefined;
    try {
      second.deps.live.listening();
      await until(() => second.deps.live.listening());
      await blocker.query("begin");
      await blocker.query("lock table session_revocations in access exclusive mode");
      await shop.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${NOTIFY_LISTENER_APPLICATION_NAME} and datname = current_database()`);
      await until(() => !second.deps.live.listening());
      let waiting = 0;
      for (let tries = 0; tries < 200 && waiting < 2; tries++) {
        waiting = await loadsWaiting();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(waiting).toBe(2);
      // Both instances' listeners reconnected and wait in their read: neither counts as listening.
      expect(second.deps.live.listening()).toBe(false);
      expect(await addressSeen(second.app, copies.kept)).toBe(CHANGED_ADDRESS);
      // Revoked now: its stamp is written at commit, behind the same lock.
      revoked = shop.db.execute(sql`delete from sessions where user_id = ${gone.userId}`);
      // Cut in the middle of the read: the reconnect starts over.
      for (const pid of await listenerPids()) {
        await shop.db.execute(sql`select pg_terminate_backend(${pid})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(second.deps.live.listening()).toBe(false);
      await blocker.query("rollback");
      await revoked;
      await until(() => second.deps.live.listening());
      await until(() => shop.deps.live.listening());
      expect(await addressSeen(second.app, copies.gone)).toBeNull();
      const { answer, asked } = await queriesOfRequest(second.deps.db.$client, () =>
        addressSeen(second.app, copies.kept),
      );
      expect(answer).toBe(ORIGINAL_ADDRESS);
      expect(asked).toEqual([]);
    } finally {
      await blocker.query("rollback").catch(() => {});
      blocker.release();
      await revoked?.catch(() => {});
      await second.end();
    }
  });
});

describe("session_revocations", () => {
  it("holds each user's last stamp, the one every listener heard last", async () => {
    const account = await signUpViaApp(shop.app, "stamped@example.in");
    for (let i = 0; i < 3; i++) {
      await shop.db.execute(sql`update users set name = ${`Stamped ${i}`} where id = ${account.userId}`);
    }
    await until(() => !shop.deps.live.sessionVersion(account.userId).startsWith("unheard"));
    const { rows } = await shop.db.execute<{ stamp: string }>(
      sql`select stamp::text as stamp from session_revocations where user_id = ${account.userId}`,
    );
    expect(rows).toHaveLength(1);
    await until(() => shop.deps.live.sessionVersion(account.userId) === rows[0]?.stamp);
  });
});
