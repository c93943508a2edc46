import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { FAKE_MSG91, type FakeSmsProvider, startFakeSmsProvider } from "../../tests/fake-sms-provider.ts";
import { readMails } from "../../tests/mail.ts";
import { createApp } from "../app.ts";
import { authThrottles, jobs, users, verifications } from "../db/schema.ts";
import { createDeps } from "../deps.ts";
import { parseEnv } from "../env.ts";

let sms: FakeSmsProvider;
let shop: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  sms = await startFakeSmsProvider();
  shop = await createTestApp({
    MSG91_AUTH_KEY: FAKE_MSG91.authKey,
    MSG91_TEMPLATE_ID: FAKE_MSG91.templateId,
    MSG91_API_BASE: sms.base,
    AUTH_SMS_PER_NUMBER: "1000",
    AUTH_SMS_PER_CLIENT: "1000",
  });
});
afterAll(async () => {
  await shop.close();
  await sms.close();
});
beforeEach(() => {
  sms.state.outage = null;
});

let nextNumber = 9_000_000_001;
/** A fresh Indian mobile per test, so tests do not share codes or allowances. */
const freshMobile = () => String(nextNumber++);

type App = { request: (path: string, init: RequestInit) => Response | Promise<Response> };

const sendCode = (phoneNumber: string, { app = shop.app as App, ip = "198.51.100.1" } = {}) =>
  callApi(app, "POST", "/api/auth/phone-number/send-otp", {
    body: { phoneNumber },
    headers: { "X-Forwarded-For": ip },
  });

const verify = (phoneNumber: string, code: string, cookie?: string, extra: Record<string, unknown> = {}) =>
  shop.app.request(
    "/api/auth/phone-number/verify",
    jsonRequest({ method: "POST", body: { phoneNumber, code, ...extra }, cookie }),
  );

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

async function sessionUser(cookie: string) {
  const response = await shop.app.request("/api/auth/get-session", jsonRequest({ cookie }));
  return ((await response.json()) as { user: Record<string, unknown> } | null)?.user ?? null;
}

/** A code the shopper did not get: any six digits but the right one. */
const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, "0");

describe("sign-in with a mobile number", () => {
  it("sends a 6-digit code by SMS through the job queue, keeping neither it nor the number in the clear", async () => {
    const mobile = freshMobile();
    const before = sms.messages.length;
    const sent = await sendCode(`+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`);
    expect(sent).toEqual({ status: 200, body: { message: "code sent" } });
    const code = await sms.codeFor(`+91${mobile}`, { after: before });
    expect(code).toMatch(/^\d{6}$/);

    const rows = await shop.db.select().from(verifications);
    expect(rows.some((row) => row.identifier.includes(mobile) || row.value.includes(code))).toBe(false);
    const queued = await shop.db.select().from(jobs).where(eq(jobs.kind, "sms-sign-in-code"));
    expect(queued.length).toBeGreaterThan(0);
    expect(JSON.stringify(queued.map((job) => job.payload))).not.toContain(code);
  });

  it("signs a new number in to a new account, and the same number to the same account next time", async () => {
    const mobile = freshMobile();
    await sendCode(mobile);
    const first = await verify(mobile, await sms.codeFor(`+91${mobile}`));
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody).not.toHaveProperty("token");
    const user = await sessionUser(cookieOf(first));
    expect(user).toMatchObject({ phoneNumber: `+91${mobile}`, phoneNumberVerified: true });

    const after = sms.messages.length;
    await sendCode(`0${mobile}`);
    const second = await verify(`+91${mobile}`, await sms.codeFor(`+91${mobile}`, { after }));
    expect(second.status).toBe(200);
    expect((await sessionUser(cookieOf(second)))?.id).toBe(user?.id);
    expect(
      await shop.db
        .select()
        .from(users)
        .where(eq(users.phoneNumber, `+91${mobile}`)),
    ).toHaveLength(1);
  });

  it("signs in to the account that already has the number, proved from its settings", async () => {
    const account = await signUpViaApp(shop.app as never, "has-a-mobile@example.in");
    const mobile = freshMobile();
    await sendCode(mobile);
    const added = await verify(mobile, await sms.codeFor(`+91${mobile}`), account.cookie, {
      updatePhoneNumber: true,
    });
    expect(added.status).toBe(200);

    const after = sms.messages.length;
    await sendCode(mobile);
    const signedIn = await verify(mobile, await sms.codeFor(`+91${mobile}`, { after }));
    expect(signedIn.status).toBe(200);
    expect((await sessionUser(cookieOf(signedIn)))?.id).toBe(account.userId);
  });

  it("counts at most 5 tries of 20 wrong codes sent at once, then refuses even the right one", async () => {
    const mobile = freshMobile();
    await sendCode(mobile);
    const code = await sms.codeFor(`+91${mobile}`);
    const triedOut = sql`select count(*)::int as n from verifications
      where value ~ '^[A-Za-z0-9_-]{43}:[0-9]+$' and split_part(value, ':', 2)::int >= 5`;
    const before = (await shop.db.execute<{ n: number }>(triedOut)).rows[0]?.n ?? 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(mobile, wrongCode(code))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(400));
    // The code's row counts exactly 5 tries: none past the limit, whichever answer came first.
    expect((await shop.db.execute<{ n: number }>(triedOut)).rows[0]?.n).toBe(before + 1);
    const over = await shop.db.execute(sql`select 1 from verifications
      where value ~ '^[A-Za-z0-9_-]{43}:[0-9]+$' and split_part(value, ':', 2)::int > 5`);
    expect(over.rows).toHaveLength(0);

    const right = await verify(mobile, code);
    expect(right.status).toBe(400);
    expect(((await right.json()) as { code: string }).code).toBe("INVALID_OTP");
    expect(right.headers.getSetCookie()).toEqual([]);
  });

  it("answers alike whether a code is pending, wrong, expired, tried out or never sent", async () => {
    const expired = freshMobile();
    await sendCode(expired);
    await shop.db.execute(sql`update verifications set expires_at = now() - interval '1 second'
      where expires_at > now() and created_at > now() - interval '1 minute'`);
    const pending = freshMobile();
    await sendCode(pending);
    const pendingCode = await sms.codeFor(`+91${pending}`);
    const triedOut = freshMobile();
    await sendCode(triedOut);
    const triedOutCode = await sms.codeFor(`+91${triedOut}`);
    for (let attempt = 0; attempt < 5; attempt++) await verify(triedOut, wrongCode(triedOutCode));
    const neverSent = freshMobile();

    const answers = await Promise.all(
      [
        verify(neverSent, "123456"),
        verify(pending, wrongCode(pendingCode)),
        verify(expired, "123456"),
        verify(triedOut, triedOutCode),
      ].map(async (answer) => {
        const response = await answer;
        return { status: response.status, body: await response.json() };
      }),
    );
    const [first] = answers;
    expect(first).toEqual({ status: 400, body: { code: "INVALID_OTP", message: expect.any(String) } });
    for (const answer of answers) expect(answer).toEqual(first);
  });

  it("lets a shopper who mistyped sign in with the right code within the 5 tries, once", async () => {
    const mobile = freshMobile();
    await sendCode(mobile);
    const code = await sms.codeFor(`+91${mobile}`);
    for (let attempt = 0; attempt < 4; attempt++)
      expect((await verify(mobile, wrongCode(code))).status).toBe(400);
    expect((await verify(mobile, code)).status).toBe(200);
    expect((await verify(mobile, code)).status).toBe(400);
  });

  it("refuses an expired code", async () => {
    const mobile = freshMobile();
    await sendCode(mobile);
    const code = await sms.codeFor(`+91${mobile}`);
    // Five minutes pass.
    await shop.db.execute(sql`update verifications set expires_at = now() - interval '1 second'
      where expires_at > now() and created_at > now() - interval '1 minute'`);
    const answer = await verify(mobile, code);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { code: string }).code).toBe("INVALID_OTP");
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it("refuses numbers that are not Indian mobiles, malformed codes, extra fields and the password endpoints, writing nothing", async () => {
    const jobsBefore = (await shop.db.select().from(jobs)).length;
    const codesBefore = (await shop.db.select().from(verifications)).length;
    const usersBefore = (await shop.db.select().from(users)).length;
    for (const phoneNumber of ["5876543210", "98765", "+1 415 555 0100", "98765abcde", ""]) {
      const answer = await sendCode(phoneNumber);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("INVALID_PHONE_NUMBER");
      expect(answer.body.message).toMatch(/^phoneNumber: /);
    }
    const extra = await callApi(shop.app, "POST", "/api/auth/phone-number/send-otp", {
      body: { phoneNumber: freshMobile(), role: "owner" },
    });
    expect(extra.status).toBe(400);
    const badCode = await verify(freshMobile(), "12ab56");
    expect(badCode.status).toBe(400);
    expect(((await badCode.json()) as { message: string }).message).toMatch(/^code: /);
    for (const path of [
      "/sign-in/phone-number",
      "/phone-number/request-password-reset",
      "/phone-number/reset-password",
    ]) {
      const answer = await callApi(shop.app, "POST", `/api/auth${path}`, {
        body: { phoneNumber: freshMobile(), password: "x", otp: "123456", newPassword: "long-enough-1" },
      });
      expect(answer.status).toBe(404);
    }
    expect(await shop.db.select().from(jobs)).toHaveLength(jobsBefore);
    expect(await shop.db.select().from(verifications)).toHaveLength(codesBefore);
    expect(await shop.db.select().from(users)).toHaveLength(usersBefore);
  });

  it("refuses the stand-in addresses of mobile accounts wherever an address is typed", async () => {
    const answer = await callApi(shop.app, "POST", "/api/auth/sign-up/email", {
      body: { name: "Taker", email: "919000000001@mobile.invalid", password: "long-enough-password" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("INVALID_EMAIL");
  });

  it("sends no e-mail to a mobile account's stand-in address, and others as before", async () => {
    const mail = { subject: "Order placed", text: "Thank you", html: "<p>Thank you</p>" };
    await shop.deps.mailer.send({ to: "919000000001@mobile.invalid", ...mail });
    await shop.deps.mailer.send({ to: "someone@example.in", ...mail });
    const sent = await readMails(shop.dataDir);
    expect(sent.some((message) => message.to.includes("mobile.invalid"))).toBe(false);
    expect(sent.some((message) => message.to === "someone@example.in")).toBe(true);
  });

  it("keeps running when the provider is down, and sends the code once it is back", async () => {
    const mobile = freshMobile();
    sms.state.outage = "down";
    const requestsBefore = sms.state.requests;
    expect((await sendCode(mobile)).status).toBe(200);
    await expect.poll(() => sms.state.requests, { timeout: 5_000 }).toBeGreaterThan(requestsBefore + 1);
    sms.state.outage = null;
    const code = await sms.codeFor(`+91${mobile}`);
    expect((await verify(mobile, code)).status).toBe(200);
  });

  it("is not offered without a provider outside development", async () => {
    const providers = await callApi(shop.app, "GET", "/api/account/providers");
    expect(providers.body.mobile).toBe(true);
    const bare = createDeps({
      db: shop.db,
      env: parseEnv({ ...envSource(), MSG91_AUTH_KEY: "", MSG91_TEMPLATE_ID: "" }),
    });
    const app = createApp(bare);
    try {
      expect((await callApi(app, "GET", "/api/account/providers")).body.mobile).toBe(false);
      expect((await sendCode(freshMobile(), { app })).status).toBe(404);
    } finally {
      await bare.catalogue.stop();
      await bare.live.stop();
    }
  });
});

/** The test app's configuration as variables, for instances built with changes. */
function envSource(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(shop.env)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : String(value)]),
  );
}

/**
 * Two instances of the test app's shop on its database, built with `changes` to its configuration after
 * `first` has run, for the tests of one describe block: `at(n)` answers them in turn.
 */
function twoInstances(changes: Record<string, string>, first?: () => Promise<unknown>) {
  let instances: { app: App; stop: () => Promise<void> }[] = [];
  beforeAll(async () => {
    await first?.();
    const env = parseEnv({ ...envSource(), ...changes });
    instances = [0, 1].map(() => {
      const deps = createDeps({ db: shop.db, env });
      return {
        app: createApp(deps),
        stop: async () => {
          await deps.catalogue.stop();
          await deps.live.stop();
        },
      };
    });
  });
  afterAll(async () => {
    for (const instance of instances) await instance.stop();
  });
  return (n: number) => (instances[n % 2] as { app: App }).app;
}

describe("codes sent per number and per client address, across two instances", () => {
  const at = twoInstances({ AUTH_SMS_PER_NUMBER: "3", AUTH_SMS_PER_CLIENT: "4" });

  it("sends one number 3 codes in the window, whichever instance and client asks", async () => {
    const mobile = freshMobile();
    for (let n = 0; n < 3; n++)
      expect((await sendCode(mobile, { app: at(n), ip: `192.0.2.${n + 1}` })).status).toBe(200);
    const refused = await sendCode(mobile, { app: at(3), ip: "192.0.2.9" });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_SMS");
    // Another number is not affected.
    expect((await sendCode(freshMobile(), { app: at(0), ip: "192.0.2.10" })).status).toBe(200);
  });

  it("lets exactly 3 of 12 requests for one number through when they arrive at once on two instances", async () => {
    const mobile = freshMobile();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => sendCode(mobile, { app: at(n), ip: `192.0.2.${20 + n}` })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(9);
  });

  it("sends one client address 4 codes in the window, for any numbers, on either instance", async () => {
    for (let n = 0; n < 4; n++)
      expect((await sendCode(freshMobile(), { app: at(n), ip: "203.0.113.50" })).status).toBe(200);
    const refused = await sendCode(freshMobile(), { app: at(1), ip: "203.0.113.50" });
    expect(refused.status).toBe(429);
    expect((await sendCode(freshMobile(), { app: at(1), ip: "203.0.113.51" })).status).toBe(200);
  });
});

describe("the shop's hourly cap on sign-in codes, across two instances", () => {
  // The codes the tests above sent count towards the same hour: start this one from none.
  const at = twoInstances({ SMS_MAX_PER_HOUR: "5" }, () => shop.db.delete(authThrottles));

  it("sends 5 codes in the hour to any numbers from any clients on either instance, then refuses with 503", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => sendCode(freshMobile(), { app: at(n), ip: `198.51.100.${n + 1}` })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 503,
        body: { code: "SMS_PAUSED", message: expect.stringContaining("e-mail") },
      });
    }
    const queued = await shop.db.select().from(jobs).where(eq(jobs.kind, "sms-sign-in-code"));
    const afterCap = await sendCode(freshMobile(), { app: at(0), ip: "198.51.100.99" });
    expect(afterCap.status).toBe(503);
    // A refused code is not queued.
    expect(await shop.db.select().from(jobs).where(eq(jobs.kind, "sms-sign-in-code"))).toHaveLength(
      queued.length,
    );
  });
});
