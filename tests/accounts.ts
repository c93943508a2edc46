import { eq } from "drizzle-orm";
import type { Hono } from "hono";
import type { BrowserContext } from "playwright-core";
import type { Db } from "../server/db/client.ts";
import { users } from "../server/db/schema.ts";

export const TEST_PASSWORD = "neem-and-tulsi-2026";

export type TestAccount = { email: string; cookie: string; userId: string };

/** Signs up through the real auth API of an app under app.request(); returns the session cookie header. */
export async function signUpViaApp(
  app: Hono,
  email: string,
  origin = "http://localhost:3000",
  /** A client address of its own, for tests that sign up more accounts than sign-up's rate limit allows. */
  ip?: string,
): Promise<TestAccount> {
  const response = await app.request("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, ...(ip ? { "X-Forwarded-For": ip } : {}) },
    body: JSON.stringify({ name: email.split("@")[0], email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  return { email, cookie: sessionCookie(response), userId: body.user.id };
}

/** The same against a running shop (startShop), over HTTP. */
export async function signUpViaHttp(baseUrl: string, email: string, ip?: string): Promise<TestAccount> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: baseUrl,
      ...(ip ? { "X-Forwarded-For": ip } : {}),
    },
    body: JSON.stringify({ name: email.split("@")[0], email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  return { email, cookie: sessionCookie(response), userId: body.user.id };
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

/** Grants the admin role directly in the database (what ADMIN_EMAILS or `npm run admin` do for real). */
export async function makeAdmin(db: Db, userId: string) {
  await db.update(users).set({ role: "admin" }).where(eq(users.id, userId));
}

/** Signs an existing account in again: a second session, as a second device would have. */
export async function signInViaApp(
  app: Hono,
  account: Pick<TestAccount, "email" | "userId">,
  origin = "http://localhost:3000",
  ip?: string,
): Promise<TestAccount> {
  const response = await app.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, ...(ip ? { "X-Forwarded-For": ip } : {}) },
    body: JSON.stringify({ email: account.email, password: TEST_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return { ...account, cookie: sessionCookie(response) };
}
