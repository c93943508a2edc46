import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, untilSessionShows } from "../../tests/accounts.ts";
import { setUpTestApp, TEST_AUTH_SECRET } from "../../tests/database.ts";
import { linkIn, readMails, waitForMail } from "../../tests/mail.ts";
import { auditLog, users } from "../db/schema.ts";
import { setRole } from "./roles.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

const shop = setUpTestApp({ ADMIN_EMAILS: "Owner@Example.in, manager@example.in" });
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = shop.env.DATABASE_URL ?? "";
});

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

const CLI = { id: "cli:test", email: "npm run admin (test)" };

describe("granting and revoking a role", () => {
  it("grants staff or owner, and revokes with every session of the account ended, each change audited", async () => {
    const staff = await signUpViaApp(shop.app, "staff@example.in");
    expect(await setRole(shop.db, "STAFF@example.in", "staff", CLI)).toEqual({
      outcome: "changed",
      email: "staff@example.in",
      role: "staff",
      sessionsEnded: 0,
    });
    await untilSessionShows(shop, staff, (user) => user?.role === "staff");
    expect(await roleOf(staff.cookie)).toBe("admin");
    expect(await setRole(shop.db, "staff@example.in", "staff", CLI)).toMatchObject({ outcome: "unchanged" });
    expect(await setRole(shop.db, "staff@example.in", "owner", CLI)).toMatchObject({
      outcome: "changed",
      role: "owner",
      sessionsEnded: 0,
    });

    const revoked = await setRole(shop.db, "staff@example.in", "customer", CLI);
    expect(revoked).toMatchObject({ outcome: "changed", role: "customer", sessionsEnded: 1 });
    await untilSessionShows(shop, staff, (user) => user === null);
    const session = await shop.app.request("/api/auth/get-session", { headers: { Cookie: staff.cookie } });
    expect(await session.json()).toBeNull();
    expect(await setRole(shop.db, "nobody@example.in", "staff", CLI)).toEqual({ outcome: "no_such_account" });

    const entries = await shop.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, staff.userId))
      .orderBy(auditLog.createdAt);
    expect(entries.map((entry) => [entry.action, entry.before, entry.after, entry.actorId])).toEqual([
      [
        "grant",
        { email: "staff@example.in", role: "customer" },
        { email: "staff@example.in", role: "staff" },
        "cli:test",
      ],
      [
        "grant",
        { email: "staff@example.in", role: "staff" },
        { email: "staff@example.in", role: "owner" },
        "cli:test",
      ],
      [
        "revoke",
        { email: "staff@example.in", role: "owner" },
        { email: "staff@example.in", role: "customer" },
        "cli:test",
      ],
    ]);
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
    const cli = (...args: string[]) => run(process.execPath, [...script, ...args], { cwd: root, env });
    await signUpViaApp(shop.app, "helper@example.in");
    const roleInDb = async () =>
      (await shop.db.select({ role: users.role }).from(users).where(eq(users.email, "helper@example.in")))[0]
        ?.role;

    expect((await cli("grant", "helper@example.in")).stdout).toContain("helper@example.in is now staff.");
    expect(await roleInDb()).toBe("staff");
    expect((await cli("grant", "helper@example.in", "--role", "owner")).stdout).toContain(
      "helper@example.in is now an owner.",
    );
    expect(await roleInDb()).toBe("owner");
    const revoked = await cli("revoke", "helper@example.in");
    expect(revoked.stdout).toContain("helper@example.in no longer has admin access; 1 session(s) ended.");
    expect(await roleInDb()).toBe("customer");

    await expect(cli("grant", "ghost@example.in")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No account uses"),
    });
    await expect(cli("promote", "helper@example.in")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Usage"),
    });
    await expect(cli("grant", "helper@example.in", "--role", "admin")).rejects.toMatchObject({ code: 2 });
  }, 60_000); // five runs of the script, each starting Node and tsx: slow on a busy machine
});
