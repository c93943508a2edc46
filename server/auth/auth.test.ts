import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signUpViaApp, TEST_PASSWORD } from "../../tests/accounts.ts";
import { createTestApp, setUpTestApp } from "../../tests/database.ts";
import { linkIn, readMails, waitForMail } from "../../tests/mail.ts";
import { accounts, sessions, users, verifications } from "../db/schema.ts";

const shop = setUpTestApp();

const ORIGIN = "http://localhost:3000";
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  shop.app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
const whoIs = async (cookie: string) =>
  (await (await shop.app.request("/api/auth/get-session", { headers: { Cookie: cookie } })).json())?.user ??
  null;
/** A link from a mail, as a path this in-process app can be asked for. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

describe("password sign-up", () => {
  it("confirms the address by e-mail; the link signs in with an HttpOnly SameSite=Lax cookie", async () => {
    const response = await post("/api/auth/sign-up/email", {
      name: "Asha",
      email: "Asha@Example.in",
      password: "turmeric-and-neem",
      callbackURL: "/login?redirectTo=%2Fsettings",
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);

    const mail = await waitForMail(shop.dataDir, { to: "asha@example.in", subject: /Confirm your e-mail/ });
    expect(mail.html).toContain("Confirm my e-mail");
    const confirm = await shop.app.request(pathOf(linkIn(mail, "/api/auth/verify-email")));
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
    const setCookie = confirm.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const session = await shop.app.request("/api/auth/get-session", {
      headers: { Cookie: cookieOf(confirm) },
    });
    const body = await session.json();
    expect(body.user).toMatchObject({ email: "asha@example.in", role: "customer", emailVerified: true });
    expect(JSON.stringify(body)).not.toMatch(/password/i);
  });

  it("answers a sign-up for a registered address exactly like a new one, and tells only its owner", async () => {
    const before = (await readMails(shop.dataDir)).length;
    const existing = await post("/api/auth/sign-up/email", {
      name: "Someone",
      email: "asha@example.in",
      password: "another-password",
    });
    const fresh = await post("/api/auth/sign-up/email", {
      name: "Bina",
      email: "bina@example.in",
      password: "another-password",
    });
    expect(existing.status).toBe(fresh.status);
    // Byte for byte the same (server/auth/enumeration.test.ts compares whole answers).
    expect(await existing.text()).toBe(await fresh.text());
    expect(existing.headers.getSetCookie()).toEqual([]);

    await waitForMail(shop.dataDir, { to: "asha@example.in", subject: /already have/, after: before });
    await waitForMail(shop.dataDir, { to: "bina@example.in", subject: /Confirm your e-mail/, after: before });
    // The existing account keeps its password.
    const signIn = await post("/api/auth/sign-in/email", {
      email: "asha@example.in",
      password: "turmeric-and-neem",
    });
    expect(signIn.status).toBe(200);
  });

  it("never lets a client make itself an admin", async () => {
    const response = await post("/api/auth/sign-up/email", {
      name: "Mallory",
      email: "mallory@example.in",
      password: "let-me-in-please",
      role: "owner",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("FIELD_NOT_ALLOWED");
    const [row] = await shop.db.select().from(users).where(eq(users.email, "mallory@example.in"));
    expect(row).toBeUndefined();
  });

  it("takes passwords of 8 to 128 characters", async () => {
    const signUp = (password: string, email: string) =>
      post("/api/auth/sign-up/email", { name: "P", email, password });
    const short = await signUp("seven77", "short@example.in");
    expect(short.status).toBe(400);
    expect((await short.json()).code).toBe("PASSWORD_TOO_SHORT");
    const long = await signUp("x".repeat(129), "long@example.in");
    expect(long.status).toBe(400);
    expect((await long.json()).code).toBe("PASSWORD_TOO_LONG");
    expect((await signUp("eight888", "eight@example.in")).status).toBe(200);
    expect((await signUp("y".repeat(128), "max@example.in")).status).toBe(200);
  });
});

describe("password sign-in", () => {
  it("gives the same answer for a wrong password and an unknown address", async () => {
    const wrong = await post("/api/auth/sign-in/email", {
      email: "asha@example.in",
      password: "not-the-password",
    });
    const unknown = await post("/api/auth/sign-in/email", {
      email: "nobody@example.in",
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("sends an unconfirmed account that knows its password a fresh confirmation link", async () => {
    const before = (await readMails(shop.dataDir)).length;
    const response = await post("/api/auth/sign-in/email", {
      email: "bina@example.in",
      password: "another-password",
    });
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe("EMAIL_NOT_VERIFIED");
    await waitForMail(shop.dataDir, { to: "bina@example.in", subject: /Confirm your e-mail/, after: before });
  });

  it("refuses a cookie-carrying request from another origin (cross-site request forgery)", async () => {
    const account = await signUpViaApp(shop.app, "csrf@example.in");
    const response = await post(
      "/api/auth/sign-out",
      {},
      { Origin: "https://evil.example", Cookie: account.cookie },
    );
    expect(response.status).toBe(403);
    expect(await whoIs(account.cookie)).not.toBeNull();
  });

  it("marks cookies Secure when the shop is served over https", async () => {
    const secure = await createTestApp({ PUBLIC_URL: "https://shop.example" });
    try {
      const account = await signUpViaApp(secure.app, "secure@example.in", "https://shop.example");
      expect(account.cookie).toMatch(/^__Secure-/);
      const response = await secure.app.request("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://shop.example" },
        body: JSON.stringify({ email: "secure@example.in", password: TEST_PASSWORD }),
      });
      const setCookie = response.headers.getSetCookie().join("\n");
      expect(setCookie).toMatch(/; Secure/i);
      expect(setCookie).toMatch(/HttpOnly/i);
    } finally {
      await secure.close();
    }
  });
});

describe("forgotten password", () => {
  it("answers the same for any address, and mails a single-use link, stored hashed, only to an account", async () => {
    const account = await signUpViaApp(shop.app, "chitra@example.in");
    const other = await signUpViaApp(shop.app, "chitra@example.in".replace("chitra", "chitra2"));
    const before = (await readMails(shop.dataDir)).length;

    const known = await post("/api/auth/request-password-reset", {
      email: account.email,
      redirectTo: "/reset-password",
    });
    const unknown = await post("/api/auth/request-password-reset", {
      email: "ghost@example.in",
      redirectTo: "/reset-password",
    });
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());

    const mail = await waitForMail(shop.dataDir, { to: account.email, subject: /Reset your/, after: before });
    expect((await readMails(shop.dataDir)).some((sent) => sent.to === "ghost@example.in")).toBe(false);
    const link = linkIn(mail, "/api/auth/reset-password/");
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const stored = await shop.db.select().from(verifications);
    expect(JSON.stringify(stored)).not.toContain(token);

    // The link from the mail opens the shop's reset page with the token.
    const opened = await shop.app.request(pathOf(link));
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/reset-password?token=${token}`);

    const reset = await post("/api/auth/reset-password", { token, newPassword: "a-brand-new-password" });
    expect(reset.status).toBe(200);
    // Every session of the account ends; the old password no longer works, the new one does.
    expect(await whoIs(account.cookie)).toBeNull();
    expect(await whoIs(other.cookie)).not.toBeNull();
    const old = await post("/api/auth/sign-in/email", { email: account.email, password: TEST_PASSWORD });
    expect(old.status).toBe(401);
    const fresh = await post("/api/auth/sign-in/email", {
      email: account.email,
      password: "a-brand-new-password",
    });
    expect(fresh.status).toBe(200);

    const again = await post("/api/auth/reset-password", { token, newPassword: "yet-another-password" });
    expect(again.status).toBe(400);
    expect((await again.json()).code).toBe("INVALID_TOKEN");
  });

  it("refuses an expired reset link", async () => {
    const account = await signUpViaApp(shop.app, "dev@example.in");
    const before = (await readMails(shop.dataDir)).length;
    await post("/api/auth/request-password-reset", { email: account.email, redirectTo: "/reset-password" });
    const mail = await waitForMail(shop.dataDir, { to: account.email, subject: /Reset your/, after: before });
    const token = new URL(linkIn(mail, "/api/auth/reset-password/")).pathname.split("/").pop() ?? "";
    await shop.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });

    const opened = await shop.app.request(pathOf(linkIn(mail, "/api/auth/reset-password/")));
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/reset-password?error=INVALID_TOKEN`);
    const reset = await post("/api/auth/reset-password", { token, newPassword: "too-late-password" });
    expect(reset.status).toBe(400);
  });
});

describe("changing the password", () => {
  it("keeps this session and signs out every other one", async () => {
    const here = await signUpViaApp(shop.app, "esha@example.in");
    const elsewhere = await post("/api/auth/sign-in/email", { email: here.email, password: TEST_PASSWORD });
    const elsewhereCookie = cookieOf(elsewhere);
    expect(await whoIs(elsewhereCookie)).not.toBeNull();

    const wrong = await post(
      "/api/auth/change-password",
      { currentPassword: "not-my-password", newPassword: "sandalwood-2026", revokeOtherSessions: true },
      { Cookie: here.cookie },
    );
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe("INVALID_PASSWORD");

    const changed = await post(
      "/api/auth/change-password",
      { currentPassword: TEST_PASSWORD, newPassword: "sandalwood-2026", revokeOtherSessions: true },
      { Cookie: here.cookie },
    );
    expect(changed.status).toBe(200);
    expect(await whoIs(elsewhereCookie)).toBeNull();
    // The changed password comes with a new session cookie for this browser.
    expect(await whoIs(cookieOf(changed))).toMatchObject({ email: here.email });
    const remaining = await shop.db.select().from(sessions).where(eq(sessions.userId, here.userId));
    expect(remaining).toHaveLength(1);
  });
});

describe("what the auth API never gives out", () => {
  it("keeps password hashes and provider tokens on the server", async () => {
    const account = await signUpViaApp(shop.app, "farah@example.in");
    const listed = await shop.app.request("/api/auth/list-accounts", { headers: { Cookie: account.cookie } });
    const body = JSON.stringify(await listed.json());
    const [stored] = await shop.db.select().from(accounts).where(eq(accounts.userId, account.userId));
    expect(stored?.password).toBeTruthy();
    expect(body).not.toContain(stored?.password ?? "(none)");
    expect(body).not.toMatch(/password|accessToken|refreshToken/);
  });
});

describe("Better Auth's refusals without a body", () => {
  it("answers account-info signed out with 401 in the error shape, not an empty JSON answer", async () => {
    const response = await shop.app.request("/api/auth/account-info?accountId=nope");
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      error: { code: "unauthenticated", message: expect.any(String) },
    });
  });
});
