import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  makeAdmin,
  signInViaApp,
  signUpOwnerStaffAndCustomer,
  signUpViaApp,
  signUpWithRole,
  type TestAccount,
} from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { auditLog, users } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount, staff: TestAccount, customer: TestAccount;

beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "staff-page"));
});

const api = (method: string, body?: unknown, as: TestAccount | null = owner) =>
  callApi(shop.app, method, "/api/admin/staff", { body, ...(as ? { as } : {}) });

const roleOf = async (email: string) =>
  (await shop.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role;

describe("/api/admin/staff: who may", () => {
  it("answers 401 signed out and 403 to staff and customers, and changes nothing", async () => {
    const grant = { email: customer.email, role: "owner" };
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", grant],
    ] as const) {
      expect((await api(method, body, null)).status).toBe(401);
      for (const as of [staff, customer]) {
        const refused = await api(method, body, as);
        expect(refused.status, `${method} as ${as.email}`).toBe(403);
        expect(refused.body.error.code).toBe("forbidden");
      }
    }
    expect(await roleOf(customer.email)).toBe("customer");
  });
});

describe("the owner manages staff", () => {
  it("lists owners first, then staff, with the owner's own id", async () => {
    const { status, body } = await api("GET");
    expect(status).toBe(200);
    expect(body.youId).toBe(owner.userId);
    expect(body.people.map((person: { email: string; role: string }) => [person.email, person.role])).toEqual(
      [
        [owner.email, "owner"],
        [staff.email, "staff"],
      ],
    );
    expect(Object.keys(body.people[0]).sort()).toEqual(["email", "id", "name", "role"]);
  });

  it("grants a role to an existing account by e-mail, changes and revokes it, says what happened, audited", async () => {
    const person = await signUpViaApp(shop.app, "new-helper@example.in");
    const granted = await api("PUT", { email: "New-Helper@Example.in", role: "staff" });
    expect(granted.status).toBe(200);
    expect(granted.body.message).toBe("new-helper@example.in is now staff.");
    expect(granted.body.people.map((each: { email: string }) => each.email)).toContain(
      "new-helper@example.in",
    );

    const again = await api("PUT", { email: "new-helper@example.in", role: "staff" });
    expect(again.body.message).toBe("new-helper@example.in is already staff.");

    expect((await api("PUT", { email: "new-helper@example.in", role: "owner" })).body.message).toBe(
      "new-helper@example.in is now an owner.",
    );
    const revoked = await api("PUT", { email: "new-helper@example.in", role: "customer" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe(
      "new-helper@example.in no longer has admin access; 1 session(s) ended.",
    );
    expect(await roleOf("new-helper@example.in")).toBe("customer");
    const session = await shop.app.request("/api/auth/get-session", { headers: { Cookie: person.cookie } });
    expect(await session.json()).toBeNull();

    const entries = await shop.db
      .select({
        action: auditLog.action,
        actorId: auditLog.actorId,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "role"), eq(auditLog.entityId, person.userId)))
      .orderBy(auditLog.createdAt);
    expect(entries.map((entry) => [entry.action, entry.actorId, entry.after])).toEqual([
      ["grant", owner.userId, { email: "new-helper@example.in", role: "staff" }],
      ["grant", owner.userId, { email: "new-helper@example.in", role: "owner" }],
      ["revoke", owner.userId, { email: "new-helper@example.in", role: "customer" }],
    ]);
  });

  it("refuses an address with no account (404 naming the field) and bad input (400 naming the field)", async () => {
    const unknown = await api("PUT", { email: "nobody-here@example.in", role: "staff" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.fields.email).toContain("No account uses nobody-here@example.in");
    for (const [body, field] of [
      [{ email: "not-an-address", role: "staff" }, "email"],
      [{ email: customer.email, role: "admin" }, "role"],
      [{ email: customer.email }, "role"],
      [{ email: customer.email, role: "staff", userId: customer.userId }, "userId"],
    ] as const) {
      const refused = await api("PUT", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
    expect(await roleOf(customer.email)).toBe("customer");
  });
});

describe("a shop always keeps an owner", () => {
  it("the only owner can neither demote nor revoke themself", async () => {
    for (const role of ["staff", "customer"]) {
      const refused = await api("PUT", { email: owner.email, role });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toEqual({
        code: "last_owner",
        message: `${owner.email} is the shop's only owner, and a shop needs one. Make someone else an owner first.`,
      });
    }
    expect(await roleOf(owner.email)).toBe("owner");
  });

  it("with a second owner, either may step down, but two owners demoting each other at once leave one", async () => {
    for (let round = 0; round < 5; round++) {
      const other = await signUpWithRole(shop, `co-owner-${round}@example.in`, "owner");
      const [first, second] = await Promise.all([
        api("PUT", { email: other.email, role: "staff" }, owner),
        api("PUT", { email: owner.email, role: "staff" }, other),
      ]);
      const statuses = [first.status, second.status];
      const owners = await shop.db.select({ id: users.id }).from(users).where(eq(users.role, "owner"));
      expect(owners, `round ${round}: ${statuses}`).toHaveLength(1);
      // Whoever lost the role was signed out, so the other's answer may be 401 when it came second.
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      if (owners[0]?.id !== owner.userId) {
        // Put the first owner back for the next round, as the remaining owner.
        owner = await signInViaApp(shop.app, owner);
        await makeAdmin(shop, owner, "owner");
        await makeAdmin(shop, other, "staff");
      }
    }
  }, 60_000);

  it("an owner with another owner beside them may step down to staff", async () => {
    const other = await signUpWithRole(shop, "steady-owner@example.in", "owner");
    const stepDown = await api("PUT", { email: other.email, role: "staff" }, other);
    expect(stepDown.status).toBe(200);
    expect(await roleOf(other.email)).toBe("staff");
  });
});
