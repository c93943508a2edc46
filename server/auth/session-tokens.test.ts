import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signInViaApp, signUpViaApp, TEST_PASSWORD } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { sessions } from "../db/schema.ts";

const shop = setUpTestApp();

const ORIGIN = "http://localhost:3000";
const call = (method: string, path: string, cookie: string, body?: unknown) =>
  shop.app.request(path, jsonRequest({ method, body, cookie, headers: { Origin: ORIGIN } }));
const tokensOf = async (userId: string) =>
  (await shop.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, userId))).map(
    (row) => row.token,
  );

describe("session tokens stay on the server", () => {
  it("get-session and list-sessions answer without any token", async () => {
    const account = await signUpViaApp(shop.app, "tara@example.in");
    await signInViaApp(shop.app, account);
    const tokens = await tokensOf(account.userId);
    expect(tokens).toHaveLength(2);

    const current = await call("GET", "/api/auth/get-session", account.cookie);
    expect(current.status).toBe(200);
    const session = await current.json();
    expect(session.user.email).toBe(account.email);
    expect(session.session.id).toBeTruthy();
    expect(session.session).not.toHaveProperty("token");

    const listed = await call("GET", "/api/auth/list-sessions", account.cookie);
    expect(listed.status).toBe(200);
    const list = await listed.json();
    expect(list).toHaveLength(2);
    for (const entry of list) expect(entry).not.toHaveProperty("token");

    for (const body of [JSON.stringify(session), JSON.stringify(list)]) {
      for (const token of tokens) expect(body).not.toContain(token);
    }
  });
});

describe("changing the password", () => {
  it.each([
    ["asks to keep them", { revokeOtherSessions: false }],
    ["does not say", {}],
  ])("ends every other session even when the client %s", async (_, choice) => {
    const here = await signUpViaApp(shop.app, `uma-${Object.keys(choice).length}@example.in`);
    const elsewhere = await signInViaApp(shop.app, here);
    const changed = await call("POST", "/api/auth/change-password", here.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: "a-new-password-2026",
      ...choice,
    });
    expect(changed.status).toBe(200);
    expect(await (await call("GET", "/api/auth/get-session", elsewhere.cookie)).json()).toBeNull();
    expect(await tokensOf(here.userId)).toHaveLength(1);
  });
});
