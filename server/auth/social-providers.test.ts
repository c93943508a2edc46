import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import {
  type FakeProvider,
  type FakeProviderKind,
  startFakeProviders,
} from "../../tests/fake-social-providers.ts";
import { linkIn, waitForMail } from "../../tests/mail.ts";
import { accounts, sessions, users } from "../db/schema.ts";

const ORIGIN = "http://localhost:3000";
const CLIENTS = {
  facebook: { clientId: "4011223344556677", clientSecret: "fb-app-secret-0123456789abcdef" },
  github: { clientId: "Ov23liShopTestClient", clientSecret: "gh-client-secret-0123456789abcdef" },
  twitter: { clientId: "X-shop-client-id", clientSecret: "x-client-secret-0123456789abcdef" },
} as const;

let providers: Awaited<ReturnType<typeof startFakeProviders>>;
let fakes: Record<FakeProviderKind, FakeProvider>;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let logged: string[] = [];

beforeAll(async () => {
  providers = await startFakeProviders(CLIENTS);
  fakes = providers.fakes;
  shop = await createTestApp(providers.env);
});
afterAll(async () => {
  await shop?.close();
  await providers?.close();
});

// Everything the shop logs during a test, to check that no code, token or secret is in it.
beforeEach(() => {
  logged = [];
  for (const method of ["error", "warn", "log", "info"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 6 }))).join(" "));
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const fake of Object.values(fakes)) fake.restore();
});

const cookiesOf = (response: Response) =>
  response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");

/**
 * The whole redirect flow through the auth handler: the shop sends the shopper to the provider, who allows
 * or cancels there, and comes back to the shop's callback. `linkWith` starts it from Settings (connect).
 */
async function flow(
  provider: FakeProviderKind,
  options: { decision?: "allow" | "deny"; linkWith?: string; tamper?: (back: URL) => void } = {},
) {
  const start = await shop.app.request(
    options.linkWith ? "/api/auth/link-social" : "/api/auth/sign-in/social",
    jsonRequest({
      method: "POST",
      cookie: options.linkWith,
      headers: { Origin: ORIGIN },
      body: options.linkWith
        ? { provider, callbackURL: "/settings", errorCallbackURL: "/settings" }
        : { provider, callbackURL: "/login?redirectTo=%2F", errorCallbackURL: "/login" },
    }),
  );
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(fakes[provider].base);
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/callback/${provider}`);
  const back = await fakes[provider].decide(url, options.decision ?? "allow");
  expect(back.pathname).toBe(`/api/auth/callback/${provider}`);
  options.tamper?.(back);
  const startCookies = cookiesOf(start);
  const cookie = [options.linkWith, ...startCookies].filter(Boolean).join("; ");
  const callback = await shop.app.request(back.pathname + back.search, jsonRequest({ cookie }));
  const location = new URL(callback.headers.get("location") ?? "", ORIGIN);
  return { back, startCookies, location, cookie: cookiesOf(callback).join("; "), authorize };
}

const sessionUser = async (cookie: string) =>
  cookie
    ? (await (await shop.app.request("/api/auth/get-session", jsonRequest({ cookie }))).json())?.user
    : null;

async function counts() {
  const [[u], [a], [s]] = await Promise.all([
    shop.db.select({ n: count() }).from(users),
    shop.db.select({ n: count() }).from(accounts),
    shop.db.select({ n: count() }).from(sessions),
  ]);
  return { users: u?.n, accounts: a?.n, sessions: s?.n };
}

const providersOf = async (userId: string) =>
  (
    await shop.db
      .select({ providerId: accounts.providerId })
      .from(accounts)
      .where(eq(accounts.userId, userId))
  )
    .map((row) => row.providerId)
    .sort();

/** No code, access token or client secret of any provider is in what the shop logged. */
function expectNoSecretsLogged() {
  const text = logged.join("\n");
  const secrets = [
    ...Object.values(fakes).flatMap((fake) => fake.log.secrets),
    ...Object.values(CLIENTS).map((client) => client.clientSecret),
  ];
  for (const secret of secrets) expect(text).not.toContain(secret);
}

function expectRefused(location: URL, error: string) {
  expect(location.pathname).toBe("/login");
  expect(location.searchParams.get("error")).toBe(error);
}

const uniqueId = () => String(Math.floor(Math.random() * 1e9));

describe("GitHub: the address comes from /user/emails, and only a verified one", () => {
  it("uses the primary verified address of an account whose address is private", async () => {
    fakes.github.signInAs({
      id: uniqueId(),
      name: "Meera Iyer",
      username: "meera-i",
      email: undefined, // private: /user has "email": null
      emails: [
        { email: "meera.old@example.in", primary: false, verified: false, visibility: null },
        { email: "meera@example.in", primary: true, verified: true, visibility: "private" },
        { email: "1234+meera-i@users.noreply.github.com", primary: false, verified: true, visibility: null },
      ],
    });
    const { location, cookie, authorize } = await flow("github");
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.pathname + location.search).toBe("/login?redirectTo=%2F");
    expect(await sessionUser(cookie)).toMatchObject({
      email: "meera@example.in",
      name: "Meera Iyer",
      emailVerified: true,
    });
    expectNoSecretsLogged();
  });

  it("never trusts an unverified address: with no verified one there is no address, and nothing is created", async () => {
    fakes.github.signInAs({
      id: uniqueId(),
      email: "kiran@example.in", // shown on the profile, but not verified on /user/emails
      emails: [{ email: "kiran@example.in", primary: true, verified: false, visibility: "public" }],
    });
    const before = await counts();
    const { location, cookie } = await flow("github");
    expectRefused(location, "email_not_verified");
    expect(cookie).not.toContain("session_token=");
    expect(await counts()).toEqual(before);
    expect(await shop.db.select().from(users).where(eq(users.email, "kiran@example.in"))).toHaveLength(0);
    expectNoSecretsLogged();
  });

  it("does not link an existing account through an unverified address, even the primary one", async () => {
    const existing = await signUpViaApp(shop.app, "tara@example.in");
    fakes.github.signInAs({
      id: uniqueId(),
      emails: [
        { email: "tara@example.in", primary: true, verified: false, visibility: "private" },
        { email: "tara.work@example.in", primary: false, verified: true, visibility: null },
      ],
    });
    const { cookie } = await flow("github");
    expect((await sessionUser(cookie))?.email).toBe("tara.work@example.in");
    expect(await providersOf(existing.userId)).toEqual(["credential"]);
  });

  it("creates nothing for a GitHub App without the e-mail permission (no /user/emails)", async () => {
    fakes.github.app.emailPermission = false;
    fakes.github.signInAs({
      id: uniqueId(),
      email: "public@example.in",
      emails: [{ email: "public@example.in", primary: true, verified: true, visibility: "public" }],
    });
    const before = await counts();
    const { location } = await flow("github");
    expectRefused(location, "email_not_found");
    expect(await counts()).toEqual(before);
  });
});

describe("a provider that gives no address", () => {
  it("X without the e-mail permission: no account, no session, no made-up address", async () => {
    fakes.twitter.app.emailPermission = false;
    fakes.twitter.signInAs({ id: uniqueId(), name: "Arjun", username: "arjun_x", email: "arjun@example.in" });
    const before = await counts();
    const { location, cookie } = await flow("twitter");
    expectRefused(location, "email_not_found");
    expect(cookie).not.toContain("session_token=");
    expect(await counts()).toEqual(before);
    const invented = await shop.db.select({ email: users.email }).from(users);
    expect(invented.filter(({ email }) => /twitter|arjun_x|placeholder|\.local$/i.test(email))).toEqual([]);
    expectNoSecretsLogged();
  });

  it("Facebook for an account made with a phone number: no account, no session", async () => {
    fakes.facebook.signInAs({ id: uniqueId(), name: "Lakshmi", email: undefined });
    const before = await counts();
    const { location } = await flow("facebook");
    expectRefused(location, "email_not_found");
    expect(await counts()).toEqual(before);
    expectNoSecretsLogged();
  });
});

describe("a new account from Facebook", () => {
  it("keeps the address unconfirmed (Facebook never says) and mails a confirmation link to it", async () => {
    fakes.facebook.signInAs({ id: uniqueId(), name: "Zoya", email: "zoya@example.in" });
    const { cookie } = await flow("facebook");
    expect(await sessionUser(cookie)).toMatchObject({ email: "zoya@example.in", emailVerified: false });
    const mail = await waitForMail(shop.dataDir, { to: "zoya@example.in" });
    expect(linkIn(mail, "/api/auth/verify-email")).toContain("token=");
  });
});

describe("a provider address that an account with a password already has", () => {
  it("is linked when the provider marks it verified (GitHub, X)", async () => {
    const existing = await signUpViaApp(shop.app, "neha@example.in");
    fakes.github.signInAs({
      id: uniqueId(),
      emails: [{ email: "neha@example.in", primary: true, verified: true, visibility: "private" }],
    });
    const viaGitHub = await flow("github");
    expect((await sessionUser(viaGitHub.cookie))?.id).toBe(existing.userId);

    fakes.twitter.signInAs({ id: uniqueId(), email: "neha@example.in" });
    const viaX = await flow("twitter");
    expect((await sessionUser(viaX.cookie))?.id).toBe(existing.userId);
    expect(await providersOf(existing.userId)).toEqual(["credential", "github", "twitter"]);
  });

  it("is not linked when the provider does not say it is verified (Facebook): sign in with the password first", async () => {
    const existing = await signUpViaApp(shop.app, "farah@example.in");
    fakes.facebook.signInAs({ id: uniqueId(), name: "Farah", email: "farah@example.in" });
    const before = await counts();
    const { location, cookie } = await flow("facebook");
    expectRefused(location, "account_not_linked");
    expect(await sessionUser(cookie)).toBeFalsy();
    expect(await counts()).toEqual(before);
    expect(await providersOf(existing.userId)).toEqual(["credential"]);
  });
});

describe("a sign-in that fails at the provider lands on /login with nothing created and no token logged", () => {
  for (const provider of ["facebook", "github", "twitter"] as const) {
    it(`${provider}: cancelled, wrong state, code used twice, token and profile endpoints down or 500`, async () => {
      const fake = fakes[provider];
      fake.signInAs({
        id: uniqueId(),
        email: `${provider}-fail@example.in`,
        emails: [{ email: `${provider}-fail@example.in`, primary: true, verified: true, visibility: null }],
      });
      const before = await counts();

      const cancelled = await flow(provider, { decision: "deny" });
      expectRefused(cancelled.location, "access_denied");

      const forged = await flow(provider, {
        tamper: (back) => back.searchParams.set("state", "forged-state"),
      });
      expect(forged.location.pathname).toBe("/login");
      expect(forged.location.searchParams.get("error")).toMatch(
        /^(state_mismatch|please_restart_the_process)$/,
      );

      // The provider refuses a code it has already exchanged once (here for a flow the shop started anew).
      const worked = await flow(provider);
      expect((await sessionUser(worked.cookie))?.email).toBe(`${provider}-fail@example.in`);
      const usedCode = worked.back.searchParams.get("code") ?? "";
      const tokenRequests = fake.log.tokenRequests;
      const again = await flow(provider, { tamper: (back) => back.searchParams.set("code", usedCode) });
      expectRefused(again.location, "invalid_code");
      expect(fake.log.tokenRequests).toBe(tokenRequests + 1);

      // The signed-in shopper from the one flow that worked is the only thing any of this created.
      const afterOne = await counts();
      expect(afterOne.users).toBe((before.users ?? 0) + 1);

      for (const outage of ["500", "down"] as const) {
        fake.breakEndpoint("token", outage);
        expectRefused((await flow(provider)).location, "invalid_code");
        fake.restore();
        fake.breakEndpoint("profile", outage);
        expectRefused((await flow(provider)).location, "unable_to_get_user_info");
        fake.restore();
      }
      expect(await counts()).toEqual(afterOne);
      expectNoSecretsLogged();
    });
  }
});

describe("after a provider sign-in", () => {
  it("merges the guest's cart into the account's saved cart, for each provider", async () => {
    for (const provider of ["facebook", "github", "twitter"] as const) {
      const email = `${provider}-cart@example.in`;
      fakes[provider].signInAs({
        id: uniqueId(),
        email,
        emails: [{ email, primary: true, verified: true, visibility: null }],
      });
      const { cookie } = await flow(provider);
      expect((await sessionUser(cookie))?.email).toBe(email);
      const as = { cookie };
      expect(
        (
          await callApi(shop.app, "POST", "/api/cart/items", {
            as,
            body: { id: "face-glow-oil", kind: "product" },
          })
        ).status,
      ).toBe(200);
      const merged = await callApi(shop.app, "POST", "/api/cart/merge", {
        as,
        body: {
          mergeId: randomUUID(),
          items: [
            { id: "face-glow-oil", kind: "product", quantity: 2 },
            { id: "badam-mix", kind: "product", quantity: 1 },
          ],
        },
      });
      expect(merged.status).toBe(200);
      const saved = await callApi(shop.app, "GET", "/api/cart", { as });
      expect(
        saved.body.lines.map((line: { id: string; quantity: number }) => [line.id, line.quantity]),
      ).toEqual([
        ["face-glow-oil", 3],
        ["badam-mix", 1],
      ]);
    }
  });
});

describe("the sign-in methods in Settings", () => {
  it("lists them, connects a provider (Facebook too), disconnects it, and never removes the last one", async () => {
    const shopper = await signUpViaApp(shop.app, "isha@example.in");
    const as = { cookie: shopper.cookie };
    const listed = async () =>
      ((await callApi(shop.app, "GET", "/api/auth/list-accounts", { as })).body as { providerId: string }[])
        .map((account) => account.providerId)
        .sort();
    expect(await listed()).toEqual(["credential"]);

    // Facebook never says an address is verified; connecting it signed in needs no such word.
    fakes.facebook.signInAs({ id: uniqueId(), name: "Isha", email: "isha.fb@example.in" });
    const connected = await flow("facebook", { linkWith: shopper.cookie });
    expect(connected.location.pathname + connected.location.search).toBe("/settings");
    fakes.github.signInAs({
      id: uniqueId(),
      emails: [{ email: "isha@example.in", primary: true, verified: true, visibility: null }],
    });
    await flow("github", { linkWith: shopper.cookie });
    expect(await listed()).toEqual(["credential", "facebook", "github"]);

    // The connected Facebook account now signs in to this account, whatever its own address.
    const viaFacebook = await flow("facebook");
    expect((await sessionUser(viaFacebook.cookie))?.id).toBe(shopper.userId);

    // Better Auth refuses a state-changing request with a cookie and no Origin of the shop.
    const unlink = async (cookie: string, providerId: string) => {
      const linked = (await callApi(shop.app, "GET", "/api/auth/list-accounts", { as: { cookie } })).body as {
        id: string;
        providerId: string;
      }[];
      const accountId = linked.find((account) => account.providerId === providerId)?.id;
      const response = await shop.app.request(
        "/api/auth/unlink-account",
        jsonRequest({ method: "POST", cookie, headers: { Origin: ORIGIN }, body: { accountId } }),
      );
      return { status: response.status, body: await response.json() };
    };
    expect((await unlink(shopper.cookie, "facebook")).status).toBe(200);
    expect(await listed()).toEqual(["credential", "github"]);

    // An account made by a GitHub sign-in has no password: GitHub is its one way in and stays.
    fakes.github.signInAs({
      id: uniqueId(),
      emails: [{ email: "only-github@example.in", primary: true, verified: true, visibility: null }],
    });
    const onlyGitHub = await flow("github");
    const last = await unlink(onlyGitHub.cookie, "github");
    expect(last.status).toBe(400);
    expect(last.body.code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
    const user = await sessionUser(onlyGitHub.cookie);
    expect(await providersOf(user.id)).toEqual(["github"]);
  });

  it("refuses to connect a provider account that already belongs to another shopper", async () => {
    const owner = await signUpViaApp(shop.app, "owner-gh@example.in");
    const other = await signUpViaApp(shop.app, "other-gh@example.in");
    const githubId = uniqueId();
    fakes.github.signInAs({
      id: githubId,
      emails: [{ email: "owner-gh@example.in", primary: true, verified: true, visibility: null }],
    });
    await flow("github", { linkWith: owner.cookie });
    const taken = await flow("github", { linkWith: other.cookie });
    expect(taken.location.pathname).toBe("/settings");
    expect(taken.location.searchParams.get("error")).toBe("account_already_linked_to_different_user");
    expect(await providersOf(other.userId)).toEqual(["credential"]);
  });
});
