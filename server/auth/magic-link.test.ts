import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setUpTestApp } from "../../tests/database.ts";
import { linkIn, readMails, waitForMail } from "../../tests/mail.ts";
import { users, verifications } from "../db/schema.ts";
import { MAGIC_LINK_MINUTES } from "./account-mail.ts";

const shop = setUpTestApp();

const ORIGIN = "http://localhost:3000";

async function requestLink(email: string, callbackURL = "/login?redirectTo=%2Fsettings") {
  const before = (await readMails(shop.dataDir)).length;
  const response = await shop.app.request("/api/auth/sign-in/magic-link", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN },
    body: JSON.stringify({ email, callbackURL, errorCallbackURL: "/login/email-link" }),
  });
  expect(response.status).toBe(200);
  const mail = await waitForMail(shop.dataDir, { to: email, subject: /sign-in link/, after: before });
  const landing = new URL(linkIn(mail, "/login/email-link/verify"));
  return { response, mail, landing, token: landing.searchParams.get("token") ?? "" };
}

/** What the landing page's button does: open Better Auth's verify endpoint with the link's parameters. */
const verify = (landing: URL) => shop.app.request(`/api/auth/magic-link/verify${landing.search}`);

describe("signing in with an e-mail link", () => {
  it("mails a link to the shop's landing page that signs in once, valid 10 minutes, stored hashed", async () => {
    const requestedAt = Date.now();
    const { mail, landing, token } = await requestLink("gita@example.in");
    expect(mail.text).toContain(`for the next ${MAGIC_LINK_MINUTES} minutes`);
    expect(mail.html).toContain(`Sign in to Prakriti Naturals`);
    expect(landing.origin).toBe(ORIGIN);
    expect(token.length).toBeGreaterThanOrEqual(32);

    const stored = await shop.db.select().from(verifications);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    const expiresAt = stored[0]?.expiresAt.getTime() ?? 0;
    expect(expiresAt - requestedAt).toBeLessThanOrEqual(MAGIC_LINK_MINUTES * 60_000 + 1000);
    expect(expiresAt - requestedAt).toBeGreaterThan((MAGIC_LINK_MINUTES - 1) * 60_000);

    const first = await verify(landing);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/login?redirectTo=%2Fsettings`);
    const cookie = first.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    const session = await (
      await shop.app.request("/api/auth/get-session", { headers: { Cookie: cookie } })
    ).json();
    // A new address gets an account, confirmed by the click itself.
    expect(session.user).toMatchObject({ email: "gita@example.in", emailVerified: true, role: "customer" });

    const second = await verify(landing);
    expect(second.headers.get("location")).toBe(`${ORIGIN}/login/email-link?error=INVALID_TOKEN`);
    expect(second.headers.getSetCookie().join("")).not.toContain("session_token=");
  });

  it("refuses a link older than 10 minutes", async () => {
    const { landing } = await requestLink("hema@example.in");
    await shop.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.value, JSON.stringify({ type: "magic-link", email: "hema@example.in" })));
    const response = await verify(landing);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/login/email-link?error=INVALID_TOKEN`);
    const [user] = await shop.db.select().from(users).where(eq(users.email, "hema@example.in"));
    expect(user).toBeUndefined();
  });

  it("answers the same whether or not the address has an account", async () => {
    const known = await shop.app.request("/api/auth/sign-in/magic-link", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ email: "gita@example.in" }),
    });
    const unknown = await shop.app.request("/api/auth/sign-in/magic-link", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ email: "nobody-yet@example.in" }),
    });
    expect(known.status).toBe(unknown.status);
    expect(await known.json()).toEqual(await unknown.json());
  });

  it("refuses links that send the shopper to another site afterwards", async () => {
    const response = await shop.app.request("/api/auth/sign-in/magic-link", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ email: "gita@example.in", callbackURL: "https://evil.example/steal" }),
    });
    expect(response.status).toBe(403);
  });
});
