import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { createTestApp, TEST_AUTH_SECRET } from "../../tests/database.ts";
import { linkIn, readMails, waitForMail } from "../../tests/mail.ts";
import { users } from "../db/schema.ts";
import { setAdminRole } from "./roles.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

let shop: Awaited<ReturnType<typeof createTestApp>>;
let databaseUrl: string;
beforeAll(async () => {
  shop = await createTestApp({ ADMIN_EMAILS: "Owner@Example.in, manager@example.in" });
  databaseUrl = shop.env.DATABASE_URL ?? "";
});
afterAll(() => shop.close());

const ORIGIN = "http://localhost:3000";
const roleOf = async (cookie: string) =>
  (await (await shop.app.request("/api/admin/summary", { headers: { Cookie: cookie } })).status) === 200
    ? "admin"
    : "not admin";

describe("ADMIN_EMAILS", () => {
  it("makes a listed address an admin when it confirms its sign-up, and no one else", async () => {
    const owner = await signUpViaApp(shop.app, "owner@example.in");
    expect(await roleOf(owner.cookie)).toBe("admin");
    const customer = await signUpViaApp(shop.app, "shopper@example.in");
    expect(await roleOf(customer.cookie)).toBe("not admin");
  });

  it("does not make an unconfirmed sign-up with a listed address an admin", async () => {
    await shop.app.request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ name: "Impostor", email: "manager@example.in", password: "pretending-to-be" }),
    });
    const [row] = await shop.db.select().from(users).where(eq(users.email, "manager@example.in"));
    expect(row).toMatchObject({ role: "customer", emailVerified: false });
  });

  it("makes a listed address an admin when it signs in with an e-mail link", async () => {
    const before = (await readMails(shop.dataDir)).length;
    await shop.app.request("/api/auth/sign-in/magic-link", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ email: "manager@example.in", callbackURL: "/admin" }),
    });
    const mail = await waitForMail(shop.dataDir, {
      to: "manager@example.in",
      subject: /sign-in link/,
      after: before,
    });
    const landing = new URL(linkIn(mail, "/login/email-link/verify"));
    const verified = await shop.app.request(`/api/auth/magic-link/verify${landing.search}`);
    const cookie = verified.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    expect(await roleOf(cookie)).toBe("admin");
  });
});

describe("granting and revoking the role", () => {
  it("grants, and revokes with every session of the account ended", async () => {
    const staff = await signUpViaApp(shop.app, "staff@example.in");
    expect(await setAdminRole(shop.db, "STAFF@example.in", true)).toEqual({
      outcome: "changed",
      email: "staff@example.in",
      role: "admin",
      sessionsEnded: 0,
    });
    expect(await roleOf(staff.cookie)).toBe("admin");
    expect(await setAdminRole(shop.db, "staff@example.in", true)).toMatchObject({ outcome: "unchanged" });

    const revoked = await setAdminRole(shop.db, "staff@example.in", false);
    expect(revoked).toMatchObject({ outcome: "changed", role: "customer", sessionsEnded: 1 });
    const session = await shop.app.request("/api/auth/get-session", { headers: { Cookie: staff.cookie } });
    expect(await session.json()).toBeNull();
    expect(await setAdminRole(shop.db, "nobody@example.in", true)).toEqual({ outcome: "no_such_account" });
  });

  it("works from the command line with the server's configuration (npm run admin)", async () => {
    const env = {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      ADMIN_EMAILS: "",
    };
    const script = ["--import", "tsx", "scripts/admin.ts"];
    await signUpViaApp(shop.app, "helper@example.in");

    const granted = await run(process.execPath, [...script, "grant", "helper@example.in"], {
      cwd: root,
      env,
    });
    expect(granted.stdout).toContain("helper@example.in is now an admin.");
    const revoked = await run(process.execPath, [...script, "revoke", "helper@example.in"], {
      cwd: root,
      env,
    });
    expect(revoked.stdout).toContain("helper@example.in is no longer an admin; 1 session(s) ended.");

    const missing = run(process.execPath, [...script, "grant", "ghost@example.in"], { cwd: root, env });
    await expect(missing).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No account uses"),
    });
    const usage = run(process.execPath, [...script, "promote", "helper@example.in"], { cwd: root, env });
    await expect(usage).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("Usage") });
  });
});
