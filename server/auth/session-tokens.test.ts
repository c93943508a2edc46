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
    // The other device's signed session copy is refused once this instance hears the revocation, a few
    // milliseconds after the commit (decision 069): asked until then, not once at an instant.
    await expect
      .poll(async () => (await call("GET", "/api/auth/get-session", elsewhere.cookie)).json(), {
        timeout: 5_000,
      })
      .toBeNull();
    expect(await tokensOf(here.userId)).toHaveLength(1);
  });
});

describe("the device that changes the password", () => {
  it("stays signed in with the cookies the change gave it, once every instance has heard of the change", async () => {
    const here = await signUpViaApp(shop.app, "vani@example.in");
    await signInViaApp(shop.app, here);
    const changed = await call("POST", "/api/auth/change-password", here.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: "a-new-password-2026",
    });
    expect(changed.status).toBe(200);
    const jar = new Map(here.cookie.split("; ").map((pair) => [pair.split("=")[0], pair] as const));
    for (const set of changed.headers.getSetCookie()) {
      const pair = set.split(";")[0] ?? "";
      jar.set(pair.split("=")[0] ?? "", pair);
    }
    const cookie = [...jar.values()].join("; ");
    // A request still carrying the ended token (a tab's cart stream asks as the change lands) must not
    // remove the cookies: answered after the change, the removal would sign this device out.
    const late = await call("GET", "/api/cart/version", here.cookie);
    expect(late.headers.getSetCookie().filter((set) => set.includes("session_token"))).toEqual([]);
    // The revocation's NOTIFY may arrive after the answer: the copy it labelled is then read again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const session = await (await call("GET", "/api/auth/get-session", cookie)).json();
    expect(session?.user.email).toBe(here.email);
  });
});
