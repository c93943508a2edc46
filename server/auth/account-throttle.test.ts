import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { signUpThroughApp, TEST_PASSWORD } from "../../tests/accounts.ts";
import {
  interceptStatements,
  jsonRequest,
  setUpTestApp,
  startSecondInstance,
  terminateBackend,
} from "../../tests/database.ts";
import { mailsTo, readMails, waitForMail } from "../../tests/mail.ts";
import { authThrottles } from "../db/schema.ts";
import { throttleKey } from "../throttles/throttle.ts";

// The shop's defaults for the per-address throttles; the per-client-address limits stay generous, so
// everything below is the per-address rule alone.
const PER_ADDRESS = {
  AUTH_ACCOUNT_SLOW_AFTER: "5",
  AUTH_ACCOUNT_LOCK_AFTER: "10",
  AUTH_ACCOUNT_LOCK_MINUTES: "15",
  AUTH_EMAIL_PER_ADDRESS: "3",
  AUTH_EMAIL_PER_ADDRESS_MINUTES: "15",
};

const shop = setUpTestApp(PER_ADDRESS);

const ORIGIN = "http://localhost:3000";
/** In-process requests have no socket, so X-Forwarded-For stands for the client's address here. */
const postFrom = (client: number, path: string, body: unknown) =>
  shop.app.request(
    path,
    jsonRequest({
      method: "POST",
      body,
      headers: { Origin: ORIGIN, "X-Forwarded-For": `198.51.100.${client}` },
    }),
  );
const signIn = (client: number, email: string, password = "a-wrong-guess") =>
  postFrom(client, "/api/auth/sign-in/email", { email, password });
/** A patient attacker: as if a minute had passed since every attempt so far (no slow-down left to wait). */
const letAMinutePass = () =>
  shop.db
    .update(authThrottles)
    .set({ lastAttemptAt: sql`${authThrottles.lastAttemptAt} - interval '1 minute'` });

async function answer(response: Response) {
  return {
    status: response.status,
    body: await response.text(),
    retry: response.headers.get("x-retry-after"),
  };
}

describe("wrong passwords against one address, from many client addresses", () => {
  it("are slowed after 5 and locked after 10, the same for an unknown address; the owner is told once", async () => {
    const owner = await signUpThroughApp(shop.app, "kavya@example.in");
    const results: Record<string, Awaited<ReturnType<typeof answer>>[]> = {};
    for (const email of [owner.email, "nobody-here@example.in"]) {
      results[email] = [];
      for (let client = 1; client <= 20; client++) {
        await letAMinutePass();
        results[email].push(await answer(await signIn(client, email)));
      }
    }
    const known = results[owner.email] ?? [];
    const unknown = results["nobody-here@example.in"] ?? [];
    expect(known.map((each) => each.status)).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
    expect(unknown.map(({ status, body }) => ({ status, body }))).toEqual(
      known.map(({ status, body }) => ({ status, body })),
    );
    const locked = known[10];
    expect(JSON.parse(locked?.body ?? "{}").code).toBe("SIGN_IN_PAUSED");
    expect(Number(locked?.retry)).toBeGreaterThan(14 * 60);
    expect(Number(locked?.retry)).toBeLessThanOrEqual(15 * 60);

    // Locked means locked: the right password waits too.
    expect((await signIn(21, owner.email, TEST_PASSWORD)).status).toBe(429);

    await expect.poll(async () => (await mailsTo(shop.dataDir, owner.email)).length).toBe(2);
    const [, lockMail] = await mailsTo(shop.dataDir, owner.email);
    expect(lockMail?.subject).toMatch(/sign-in .* is paused/);
    expect(lockMail?.text).toContain("15 minutes");
    expect((await readMails(shop.dataDir)).filter((mail) => mail.to === "nobody-here@example.in")).toEqual(
      [],
    );

    // Once the lock has run out, the right password signs in and the count starts over.
    await shop.db
      .update(authThrottles)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(sql`${authThrottles.lockedUntil} is not null`);
    expect((await signIn(22, owner.email, TEST_PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn(23, owner.email)).status).toBe(401);
  }, 90_000);

  it("after 5 failures, the next attempt waits a second, then two, from whichever client", async () => {
    const email = "slow@example.in";
    for (let client = 1; client <= 5; client++) expect((await signIn(client, email)).status).toBe(401);
    const waiting = await signIn(6, email);
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("x-retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await signIn(7, email)).status).toBe(401);
    const longer = await signIn(8, email);
    expect(longer.status).toBe(429);
    // Two seconds after the last attempt, less the time this one took to arrive (rounded up).
    expect(Number(longer.headers.get("x-retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(longer.headers.get("x-retry-after"))).toBeLessThanOrEqual(2);
  });

  it("lets exactly one attempt through when 20 clients try at once with one attempt left", async () => {
    const email = "crowded@example.in";
    for (let client = 1; client <= 9; client++) {
      await letAMinutePass();
      expect((await signIn(client, email)).status).toBe(401);
    }
    await letAMinutePass();
    const results = await Promise.all(Array.from({ length: 20 }, (_, client) => signIn(client, email)));
    const statuses = results.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(19);
  }, 60_000);
});

describe("e-mails to one address, asked for from many client addresses", () => {
  it.each([
    ["e-mail sign-in links", "/api/auth/sign-in/magic-link", { callbackURL: "/" }],
    ["password resets", "/api/auth/request-password-reset", { redirectTo: "/reset-password" }],
  ])("sends 3 %s per 15 minutes, and says when to try again", async (_, path, extra) => {
    const owner = await signUpThroughApp(shop.app, `inbox-${path.length}@example.in`);
    // The sign-up's confirmation is composed and sent by the job worker: counted before, not among the 3.
    await waitForMail(shop.dataDir, { to: owner.email, subject: /confirm/i });
    const before = (await mailsTo(shop.dataDir, owner.email)).length;
    const statuses = [];
    for (let client = 1; client <= 12; client++) {
      statuses.push((await postFrom(client, path, { email: owner.email, ...extra })).status);
    }
    expect(statuses).toEqual([200, 200, 200, ...Array(9).fill(429)]);
    // Mail goes out after the answer: wait a moment for the last of it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mailsTo(shop.dataDir, owner.email)).length - before).toBe(3);

    // An address without an account is counted alike, so the 429 tells nothing.
    const strangers = [];
    for (let client = 1; client <= 4; client++) {
      const response = await postFrom(client, path, {
        email: `stranger-${path.length}@example.in`,
        ...extra,
      });
      strangers.push(response.status);
    }
    expect(strangers).toEqual([200, 200, 200, 429]);
  });
});

describe("a password sign-in while the database's connections are cut", () => {
  /**
   * A second instance whose pool has the backend of the first statement `matches` finds terminated just before
   * it is sent, as when PostgreSQL's backends are ended by an administrator or a failover.
   */
  function instanceCutAt(matches: (text: string) => boolean) {
    const instance = startSecondInstance(shop);
    let armed = true;
    interceptStatements(instance, (text, client, send) => {
      if (!armed || !matches(text)) return send();
      armed = false;
      return terminateBackend(shop.db, client).then(send);
    });
    return { ...instance, cut: () => !armed };
  }

  it.each([
    ["taking the attempt, before the password is checked", "wrong", /^insert into "auth_throttles"/],
    ["locking the address after a wrong password", "wrong", /^update "auth_throttles" set "locked_until"/],
    [
      "clearing the count after the right password",
      "right",
      /^delete from "auth_throttles" where "auth_throttles"."key"/,
    ],
  ] as const)("is answered 503 unavailable when the throttle loses it %s", async (_, password, statement) => {
    const owner = await signUpThroughApp(shop.app, `cut-${statement.source.length}@example.in`);
    // Nine wrong guesses already: the tenth is the one that locks.
    await shop.db.insert(authThrottles).values({
      key: throttleKey(`sign-in:${owner.email}`),
      count: 9,
      windowStartedAt: sql`now() - interval '1 minute'`,
      lastAttemptAt: sql`now() - interval '1 minute'`,
    });
    const instance = instanceCutAt((text) => statement.test(text));
    try {
      const response = await instance.app.request(
        "/api/auth/sign-in/email",
        jsonRequest({
          method: "POST",
          body: { email: owner.email, password: password === "right" ? TEST_PASSWORD : "a-wrong-guess" },
          headers: { Origin: ORIGIN, "X-Forwarded-For": "198.51.100.90" },
        }),
      );
      expect(instance.cut()).toBe(true);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: { code: "unavailable", message: expect.stringMatching(/\S/) },
      });
    } finally {
      await instance.end();
    }
  });
});

describe("finished throttles", () => {
  it("are cleared now and then by a sign-in attempt, never by the session read every page load makes", async () => {
    const account = await signUpThroughApp(shop.app, "housekeeping@example.in");
    const old = { key: "finished-a-day-ago", count: 3 };
    const insertOld = () =>
      shop.db.execute(sql`insert into auth_throttles (key, count, window_started_at, last_attempt_at)
        values (${old.key}, ${old.count}, now() - interval '2 days', now() - interval '2 days')
        on conflict (key) do nothing`);
    const stillThere = async () =>
      (await shop.db.execute(sql`select 1 from auth_throttles where key = ${old.key}`)).rows.length === 1;
    await insertOld();
    // Every request would clear them if it could: the 1 in 100 chance made certain.
    const random = vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      const session = await shop.app.request("/api/auth/get-session", {
        headers: { Cookie: account.cookie },
      });
      expect(session.status).toBe(200);
      expect(await stillThere()).toBe(true);

      expect((await signIn(60, "housekeeping@example.in")).status).toBe(401);
      await expect.poll(stillThere).toBe(false);
    } finally {
      random.mockRestore();
    }
  });
});
