import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp, type TestApp } from "../../tests/database.ts";

/**
 * The session copy Better Auth sets when it reads a session from the database is known to this instance at once
 * (decision 069, fourth pass): the next request, which carries it, is answered without Better Auth, and the copy
 * still ends when the user's label changes.
 */
let shop: TestApp;
let account: TestAccount;

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  shop = await createTestApp();
  await until(() => shop.deps.live.listening());
  account = await signUpViaApp(shop.app, "fresh-copy@example.in");
}, 60_000);

afterAll(() => shop?.close());

describe("a session copy set by this instance", () => {
  it("answers the request that carries it without Better Auth, until the user's label changes", async () => {
    const tokenOnly = account.cookie
      .split("; ")
      .filter((pair) => !pair.startsWith("better-auth.session_data"))
      .join("; ");
    const first = await shop.app.request("/api/cart/version", { headers: { Cookie: tokenOnly } });
    expect(first.status).toBe(200);
    const copy = first.headers
      .getSetCookie()
      .map((line) => line.split(";")[0] ?? "")
      .find((pair) => pair.startsWith("better-auth.session_data=") && !pair.endsWith("="));
    expect(copy).toBeDefined();
    const withCopy = `${tokenOnly}; ${copy}`;

    const getSession = vi.spyOn(shop.deps.auth.api, "getSession");
    try {
      const second = await shop.app.request("/api/cart/version", { headers: { Cookie: withCopy } });
      expect(second.status).toBe(200);
      expect(getSession).not.toHaveBeenCalled();

      const label = shop.deps.live.sessionVersion(account.userId);
      await shop.db.execute(sql`update users set name = name || '.' where id = ${account.userId}`);
      await until(() => shop.deps.live.sessionVersion(account.userId) !== label);
      const third = await shop.app.request("/api/cart/version", { headers: { Cookie: withCopy } });
      expect(third.status).toBe(200);
      expect(getSession).toHaveBeenCalledTimes(1);
    } finally {
      getSession.mockRestore();
    }
  });
});
