import { randomBytes } from "node:crypto";
import { createEmailVerificationToken } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Hono } from "hono";
import type { BrowserContext } from "playwright-core";
import type { Db } from "../server/db/client.ts";
import { accounts, users } from "../server/db/schema.ts";
import { accountDatabaseOf, TEST_AUTH_SECRET } from "./database.ts";

export const TEST_PASSWORD = "neem-and-tulsi-2026";

/**
 * TEST_PASSWORD hashed once by Better Auth's own `hashPassword` (better-auth/crypto, scrypt), so an account made
 * for a test that is not about signing up costs no hashing (about 60 ms of CPU each, far more on a busy machine).
 * Signing in with TEST_PASSWORD checks it as any stored password is checked.
 */
const TEST_PASSWORD_HASH =
  "97f473a73c01b6a9fa5242c33e3c2ed8:28196ececa2e84988bb783bc40eb36849ada99441aa4579ec40f8035d465b31feb9732c8096481c657d94c02431030bdd72c3f9beb12020fd87dcccd2795b6e7";

export type TestAccount = { email: string; cookie: string; userId: string };

/**
 * An account with TEST_PASSWORD, confirmed and signed in through the shop's own confirmation link: for tests that
 * need a shopper, not a sign-up. The user and its password account are written straight into the shop's
 * database, as sign-up writes them but with the password already hashed, and without the confirmation mail
 * sign-up sends; then the address is confirmed the way the link in that mail does (which signs in). A shop
 * whose database the tests do not know (an embedded one, an app built by hand) gets the real sign-up.
 */
export async function signUpViaApp(
  app: Hono,
  email: string,
  origin = "http://localhost:3000",
): Promise<TestAccount> {
  const db = accountDatabaseOf(app);
  if (!db) return signUpThroughApp(app, email, origin);
  await insertAccount(db, email);
  return confirmAndSignIn((path, init) => app.request(path, init), email, TEST_AUTH_SECRET);
}

/** As signUpViaApp, against a running shop (startShop) over HTTP. */
export async function signUpViaHttp(
  baseUrl: string,
  email: string,
  secret = TEST_AUTH_SECRET,
): Promise<TestAccount> {
  const db = accountDatabaseOf(baseUrl);
  if (!db || secret !== TEST_AUTH_SECRET) return signUpThroughHttp(baseUrl, email, secret);
  await insertAccount(db, email);
  return confirmAndSignIn((path, init) => fetch(`${baseUrl}${path}`, init), email, secret);
}

/** The rows sign-up writes for a new address (users, and its "credential" account holding the hash). */
async function insertAccount(db: Db, email: string) {
  const userId = randomBytes(16).toString("base64url");
  await db.transaction(async (tx) => {
    // Better Auth keeps addresses in lower case.
    await tx
      .insert(users)
      .values({ id: userId, name: email.split("@")[0] ?? email, email: email.toLowerCase() });
    await tx.insert(accounts).values({
      id: randomBytes(16).toString("base64url"),
      accountId: userId,
      providerId: "credential",
      userId,
      password: TEST_PASSWORD_HASH,
    });
  });
}

async function confirmAndSignIn(
  request: (path: string, init?: RequestInit) => Response | Promise<Response>,
  email: string,
  secret: string,
): Promise<TestAccount> {
  const confirmed = await request(await confirmationPath(email, secret));
  if (!confirmed.ok) throw new Error(`confirmation failed: ${confirmed.status} ${await confirmed.text()}`);
  const cookie = sessionCookie(confirmed);
  const session = await request("/api/auth/get-session", { headers: { Cookie: cookie } });
  return { email, cookie, userId: await userIdOf(session) };
}

/**
 * Signs up through the real auth API of an app under app.request() (password hashed, confirmation mail sent,
 * the sign-up limit counted), then confirms the address the way the link in the confirmation e-mail does
 * (which signs in); returns the session cookie header. For tests where signing up is part of what is tested.
 */
export async function signUpThroughApp(
  app: Hono,
  email: string,
  origin = "http://localhost:3000",
): Promise<TestAccount> {
  const response = await app.request("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ name: email.split("@")[0], email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const confirmed = await app.request(await confirmationPath(email));
  if (!confirmed.ok) throw new Error(`confirmation failed: ${confirmed.status} ${await confirmed.text()}`);
  const cookie = sessionCookie(confirmed);
  const session = await app.request("/api/auth/get-session", { headers: { Cookie: cookie } });
  return { email, cookie, userId: await userIdOf(session) };
}

/**
 * The same against a running shop (startShop), over HTTP. A shop started with its own generated secret
 * (startShop({ embedded: true })) needs that secret: pass `readFileSync(`${shop.dataDir}/auth-secret`)`.
 */
export async function signUpThroughHttp(
  baseUrl: string,
  email: string,
  secret = TEST_AUTH_SECRET,
): Promise<TestAccount> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ name: email.split("@")[0], email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const confirmed = await fetch(`${baseUrl}${await confirmationPath(email, secret)}`);
  if (!confirmed.ok) throw new Error(`confirmation failed: ${confirmed.status} ${await confirmed.text()}`);
  const cookie = sessionCookie(confirmed);
  const session = await fetch(`${baseUrl}/api/auth/get-session`, { headers: { Cookie: cookie } });
  return { email, cookie, userId: await userIdOf(session) };
}

/**
 * The address of a confirmation link, made with Better Auth's own token function. The sign-up answer names no
 * account (docs/decisions/005), so the token names the address only, which Better Auth accepts.
 */
async function confirmationPath(email: string, secret = TEST_AUTH_SECRET) {
  const token = await createEmailVerificationToken(secret, email, undefined, 3600);
  return `/api/auth/verify-email?token=${encodeURIComponent(token)}`;
}

async function userIdOf(session: Response): Promise<string> {
  const body = (await session.json()) as { user?: { id: string } } | null;
  if (!body?.user) throw new Error(`no session after confirming: ${session.status}`);
  return body.user.id;
}

function sessionCookie(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** Puts a signed-in session into a browser context, so a journey starts signed in without the form. */
export async function signInContext(context: BrowserContext, baseUrl: string, account: TestAccount) {
  const url = new URL(baseUrl);
  await context.addCookies(
    account.cookie.split("; ").map((pair) => {
      const [name = "", ...value] = pair.split("=");
      return {
        name,
        value: value.join("="),
        domain: url.hostname,
        path: "/",
        httpOnly: true,
        sameSite: "Lax" as const,
      };
    }),
  );
}

/** A shop as a test reaches it: its database, and its app under app.request() or a running shop's address. */
export type ShopUnderTest = { db: Db } & ({ app: Hono } | { url: string });

/**
 * Grants an admin role directly in the database (what ADMIN_EMAILS or `npm run admin` do for real), and waits
 * until the shop answers the account's session with it.
 */
export async function makeAdmin(
  shop: ShopUnderTest,
  account: Pick<TestAccount, "userId" | "cookie">,
  role: "owner" | "staff" = "owner",
) {
  await shop.db.update(users).set({ role }).where(eq(users.id, account.userId));
  await untilSessionShows(shop, account, (user) => user?.role === role);
}

/**
 * What a session carries, changed in SQL, reaches the shop by NOTIFY a few milliseconds after the commit
 * (docs/decisions/069), and until then a signed copy of the session saying the old value is still trusted:
 * this asks for the session until `shows` holds for its user (null once signed out), as the test's next
 * request would see it.
 */
export async function untilSessionShows(
  shop: ShopUnderTest,
  account: Pick<TestAccount, "cookie">,
  shows: (user: Record<string, unknown> | null) => boolean,
  ms = 5000,
) {
  const deadline = Date.now() + ms;
  const init = { headers: { Cookie: account.cookie } };
  for (;;) {
    const response =
      "app" in shop
        ? await shop.app.request("/api/auth/get-session", init)
        : await fetch(`${shop.url}/api/auth/get-session`, init);
    const body = (await response.json()) as { user?: Record<string, unknown> } | null;
    if (shows(body?.user ?? null)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the shop's session did not show the change within ${ms} ms: ${JSON.stringify(body?.user)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Signs an existing account in again: a second session, as a second device would have. */
export async function signInViaApp(
  app: Hono,
  account: Pick<TestAccount, "email" | "userId">,
  origin = "http://localhost:3000",
): Promise<TestAccount> {
  const response = await app.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ email: account.email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return { ...account, cookie: sessionCookie(response) };
}

/** Signs up an account through the app and, given a role, grants it: the owners and staff of admin tests. */
export async function signUpWithRole(
  shop: { app: Hono; db: Db },
  email: string,
  role?: "owner" | "staff",
): Promise<TestAccount> {
  const account = await signUpViaApp(shop.app, email);
  if (role) await makeAdmin(shop, account, role);
  return account;
}

/** An owner, a staff member and a customer, for a file that checks who may do what: `<prefix>-owner@example.in`, … */
export async function signUpOwnerStaffAndCustomer(shop: { app: Hono; db: Db }, prefix: string) {
  const [owner, staff, customer] = await Promise.all([
    signUpWithRole(shop, `${prefix}-owner@example.in`, "owner"),
    signUpWithRole(shop, `${prefix}-staff@example.in`, "staff"),
    signUpViaApp(shop.app, `${prefix}-customer@example.in`),
  ]);
  return { owner, staff, customer };
}
