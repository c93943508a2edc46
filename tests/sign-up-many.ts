import type { Hono } from "hono";
import { signUpViaApp, type TestAccount } from "./accounts.ts";

/** Signs up several accounts at once through the real auth API (createTestApp's rate limits allow it). */
export function signUpMany(app: Hono, emails: string[]): Promise<TestAccount[]> {
  return Promise.all(emails.map((email) => signUpViaApp(app, email)));
}
