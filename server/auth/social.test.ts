import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { createTestApp } from "../../tests/database.ts";
import { startOidcServer } from "../../tests/oidc-server.ts";
import { accounts, users } from "../db/schema.ts";

const CLIENT = { clientId: "shop-client", clientSecret: "shop-client-secret" };
const ORIGIN = "http://localhost:3000";

let oidc: Awaited<ReturnType<typeof startOidcServer>>;
let shop: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  oidc = await startOidcServer(CLIENT);
  shop = await createTestApp({
    GOOGLE_CLIENT_ID: CLIENT.clientId,
    GOOGLE_CLIENT_SECRET: CLIENT.clientSecret,
    GOOGLE_ISSUER: oidc.issuer,
    ADMIN_EMAILS: "owner@example.in",
  });
});
afterAll(async () => {
  await shop.close();
  await oidc.close();
});

const cookiesOf = (response: Response) =>
  response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");

/**
 * The whole redirect flow: the shop sends the shopper to the provider, the provider's page is approved,
 * the provider sends them back to the shop's callback, which signs them in.
 */
async function signInWithGoogle() {
  const start = await shop.app.request("/api/auth/sign-in/social", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN },
    body: JSON.stringify({
      provider: "google",
      callbackURL: "/login?redirectTo=%2F",
      errorCallbackURL: "/login",
    }),
  });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(oidc.issuer);
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/callback/google`);

  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  const approved = await fetch(`${oidc.issuer}/authorize`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: authorize.searchParams.toString(),
    redirect: "manual",
  });
  const back = new URL(approved.headers.get("location") ?? "");
  expect(back.pathname).toBe("/api/auth/callback/google");
  const callback = await shop.app.request(back.pathname + back.search, {
    headers: { Cookie: cookiesOf(start).join("; ") },
  });
  return {
    callback,
    location: callback.headers.get("location") ?? "",
    cookie: cookiesOf(callback).join("; "),
  };
}

const sessionUser = async (cookie: string) =>
  (await (await shop.app.request("/api/auth/get-session", { headers: { Cookie: cookie } })).json())?.user;

describe("signing in with Google (OpenID Connect against a local provider)", () => {
  it("creates a confirmed account on the first sign-in and signs in to it afterwards", async () => {
    oidc.signInAs({ email: "priya@example.in", name: "Priya" });
    const first = await signInWithGoogle();
    expect(first.location).toBe("/login?redirectTo=%2F");
    const user = await sessionUser(first.cookie);
    expect(user).toMatchObject({
      email: "priya@example.in",
      name: "Priya",
      emailVerified: true,
      role: "customer",
    });

    const second = await signInWithGoogle();
    expect((await sessionUser(second.cookie))?.id).toBe(user.id);
    expect(await shop.db.select().from(users).where(eq(users.email, "priya@example.in"))).toHaveLength(1);
    expect(oidc.log.tokenRequests).toBeGreaterThanOrEqual(2);
  });

  it("links Google to an existing account with the same confirmed address instead of duplicating it", async () => {
    const existing = await signUpViaApp(shop.app, "ravi@example.in");
    oidc.signInAs({ email: "ravi@example.in" });
    const { cookie } = await signInWithGoogle();
    expect((await sessionUser(cookie))?.id).toBe(existing.userId);
    const linked = await shop.db
      .select({ providerId: accounts.providerId })
      .from(accounts)
      .where(eq(accounts.userId, existing.userId));
    expect(linked.map((row) => row.providerId).sort()).toEqual(["credential", "google"]);
  });

  it("does not hand an account to a provider that has not verified the address", async () => {
    const existing = await signUpViaApp(shop.app, "sunita@example.in");
    oidc.signInAs({ email: "sunita@example.in", email_verified: false });
    const { location, cookie } = await signInWithGoogle();
    const landing = new URL(location, ORIGIN);
    expect(landing.pathname).toBe("/login");
    expect(landing.searchParams.get("error")).toBe("account_not_linked");
    expect(await sessionUser(cookie)).toBeFalsy();
    const linked = await shop.db.select().from(accounts).where(eq(accounts.userId, existing.userId));
    expect(linked).toHaveLength(1);
  });

  it("makes an ADMIN_EMAILS address an admin when it signs in with a verified address", async () => {
    oidc.signInAs({ email: "owner@example.in" });
    const { cookie } = await signInWithGoogle();
    expect(await sessionUser(cookie)).toMatchObject({ email: "owner@example.in", role: "owner" });
  });

  it("lists Google among the sign-in buttons only because it is configured", async () => {
    const response = await shop.app.request("/api/account/providers");
    expect(await response.json()).toEqual({ providers: [{ id: "google", name: "Google" }], mobile: false });
    const plain = await createTestApp();
    try {
      expect(await (await plain.app.request("/api/account/providers")).json()).toEqual({
        providers: [],
        mobile: false,
      });
      const refused = await plain.app.request("/api/auth/sign-in/social", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN },
        body: JSON.stringify({ provider: "google" }),
      });
      expect(refused.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
