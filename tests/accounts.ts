import { createEmailVerificationToken } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Hono } from "hono";
import type { BrowserContext } from "playwright-core";
import type { Db } from "../server/db/client.ts";
import { users } from "../server/db/schema.ts";
import { TEST_AUTH_SECRET } from "./database.ts";

export const TEST_PASSWORD = "neem-and-tulsi-2026";

export type TestAccount = { email: string; cookie: string; userId: string };

/**
 * Signs up through the real auth API of an app under app.request(), then confirms the address the way the
 * link in the confirmation e-mail does (which signs in); returns the session cookie header.
 */
export async function signUpViaApp(
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
export async function signUpViaHttp(
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
