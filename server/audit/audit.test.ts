import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "../../common/schemas/audit.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, stockOf } from "../../tests/orders.ts";
import { auditLog, discountCodes, jobs } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount, staff: TestAccount, customer: TestAccount;
beforeAll(async () => {
  // In mixed case: the log names each person by the address as the shop keeps it, in lower case.
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "Audit"));
});

const api = (as: TestAccount | null, method: string, path: string, body?: unknown) =>
  callApi(shop.app, method, `/api${path}`, { body, ...(as ? { as } : {}) });

const auditPage = async (as: TestAccount, query = "") => {
  const response = await api(as, "GET", `/admin/audit${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as AuditPage;
};

describe("roles: owner and staff", () => {
  it("refuses staff the owner's routes with 403 in the error shape, and writes nothing", async () => {
    const ownerOnly: [string, string, unknown?][] = [
      ["GET", "/admin/discount-codes"],
      ["GET", "/admin/discount-codes/GLOW20"],
      ["POST", "/admin/discount-codes", { code: "STAFFDEAL", description: "Staff's own code", percent: 50 }],
      ["PATCH", "/admin/discount-codes/GLOW20", { percent: 90 }],
      ["GET", "/admin/audit"],
    ];
    for (const [method, path, body] of ownerOnly) {
      const refused = await api(staff, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toEqual({
        error: { code: "forbidden", message: "Only the shop's owner can do this." },
      });
      expect((await api(customer, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await api(null, method, path, body)).status, `${method} ${path}`).toBe(401);
    }
    const [glow] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "GLOW20"));
    expect(glow?.percent).toBe(20);
    expect(await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "STAFFDEAL"))).toEqual([]);
  });

  it("lets the owner use them, and staff everything else", async () => {
    expect((await api(owner, "GET", "/admin/discount-codes")).status).toBe(200);
    expect((await api(owner, "GET", "/admin/discount-codes/GLOW20")).status).toBe(200);
    expect((await api(owner, "GET", "/admin/audit")).status).toBe(200);
    for (const path of ["/admin/summary", "/admin/orders", "/admin/stock", "/admin/dashboard"]) {
      expect((await api(staff, "GET", path)).status, path).toBe(200);
      expect((await api(owner, "GET", path)).status, path).toBe(200);
    }
  });
});

describe("the audit log", () => {
  it("records a staff change with who, what, before and after, in the change's transaction", async () => {
    const previousStock = (await stockOf(shop.db, "bath-powder")) ?? 0;
    const edited = await api(staff, "PUT", "/admin/stock/product/bath-powder", {
      stock: previousStock + 5,
      previousStock,
    });
    expect(edited.status).toBe(200);
    const { items } = await auditPage(owner, "?entityType=stock");
    expect(items[0]).toMatchObject({
      actorId: staff.userId,
      actorEmail: "audit-staff@example.in",
      entityType: "stock",
      entityId: "product:bath-powder",
      action: "edit",
      before: { stock: previousStock },
      after: { stock: previousStock + 5 },
    });

    // A refused edit (the stock moved meanwhile) changes nothing and so records nothing.
    const stale = await api(staff, "PUT", "/admin/stock/product/bath-powder", { stock: 1, previousStock });
    expect(stale.status).toBe(409);
    expect((await auditPage(owner, "?entityType=stock")).items).toHaveLength(1);
  });

  it("records order status changes and courier corrections", async () => {
    const addressId = await saveAddress(shop.app, customer.cookie);
    await putInCart(shop.db, customer.userId, [{ itemId: "bath-powder" }]);
    const placed = await placeOrderRequest(shop.app, customer.cookie, { addressId, paymentMethod: "cod" });
    expect(placed.status).toBe(201);
    const { number } = ((await placed.json()) as { order: { number: string } }).order;
    for (const status of ["confirmed", "packed"])
      expect((await api(staff, "POST", `/admin/orders/${number}/status`, { status })).status).toBe(200);
    const shipped = await api(staff, "POST", `/admin/orders/${number}/status`, {
      status: "shipped",
      courier: "Delhivery",
      trackingNumber: "DL1",
    });
    expect(shipped.status).toBe(200);
    const fixed = await api(staff, "PUT", `/admin/orders/${number}/tracking`, {
      courier: "Blue Dart",
      trackingNumber: "BD2",
    });
    expect(fixed.status).toBe(200);

    const { items } = await auditPage(owner, "?entityType=order");
    expect(items.map((entry) => [entry.entityId, entry.action, entry.before, entry.after])).toEqual([
      [
        number,
        "tracking",
        { courier: "Delhivery", trackingNumber: "DL1" },
        { courier: "Blue Dart", trackingNumber: "BD2" },
      ],
      [
        number,
        "status",
        expect.objectContaining({ status: "packed", courier: null }),
        expect.objectContaining({ status: "shipped", courier: "Delhivery", trackingNumber: "DL1" }),
      ],
      [
        number,
        "status",
        expect.objectContaining({ status: "confirmed" }),
        expect.objectContaining({ status: "packed" }),
      ],
      [
        number,
        "status",
        expect.objectContaining({ status: "placed" }),
        expect.objectContaining({ status: "confirmed" }),
      ],
    ]);
  });

  it("records the owner's discount codes, not a code update that was refused", async () => {
    const created = await api(owner, "POST", "/admin/discount-codes", {
      code: "AUDIT10",
      description: "Audit test",
      percent: 10,
    });
    expect(created.status).toBe(201);
    expect((await api(owner, "PATCH", "/admin/discount-codes/AUDIT10", { percent: 15 })).status).toBe(200);
    const refused = await api(owner, "PATCH", "/admin/discount-codes/AUDIT10", {
      startsAt: "2030-01-02T00:00:00+05:30",
      endsAt: "2030-01-01T00:00:00+05:30",
    });
    expect(refused.status).toBe(400);

    const { items } = await auditPage(owner, `?entityType=discount_code&actorId=${owner.userId}`);
    expect(items.map((entry) => [entry.action, (entry.after as { percent: number }).percent])).toEqual([
      ["update", 15],
      ["create", 10],
    ]);
    expect(items[0]?.before).toMatchObject({ percent: 10 });
    expect(items.every((entry) => entry.actorEmail === "audit-owner@example.in")).toBe(true);
  });

  it("filters by staff member and pages by keyset both ways", async () => {
    const mine = await auditPage(owner, `?actorId=${staff.userId}`);
    expect(mine.items.length).toBeGreaterThanOrEqual(5);
    expect(mine.items.every((entry) => entry.actorId === staff.userId)).toBe(true);
    expect(mine.actors).toEqual(
      expect.arrayContaining([
        { id: owner.userId, email: "audit-owner@example.in" },
        { id: staff.userId, email: "audit-staff@example.in" },
      ]),
    );

    const all = await auditPage(owner, "?limit=100");
    const seen: string[] = [];
    let page = await auditPage(owner, "?limit=2");
    expect(page.cursors.previous).toBeNull();
    for (;;) {
      seen.push(...page.items.map((entry) => entry.id));
      if (!page.cursors.next) break;
      page = await auditPage(owner, `?limit=2&after=${page.cursors.next}`);
    }
    expect(seen).toEqual(all.items.map((entry) => entry.id));
    const back = await auditPage(owner, `?limit=2&before=${page.cursors.previous}`);
    expect(back.items.map((entry) => entry.id)).toEqual(
      seen.slice(-2 - page.items.length, -page.items.length),
    );
  });

  it("answers bad filters with a 400 naming the field", async () => {
    const badType = await api(owner, "GET", "/admin/audit?entityType=payment");
    expect(badType.status).toBe(400);
    expect(badType.body.error.message).toContain("entityType");
    const badCursor = await api(owner, "GET", "/admin/audit?after=nonsense");
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toContain("after");
    const control = await api(owner, "GET", "/admin/audit?actorId=a%00b");
    expect(control.status).toBe(400);
    expect(control.body.error.message).toContain("actorId");
    expect(await shop.db.select().from(auditLog).where(eq(auditLog.actorId, customer.userId))).toEqual([]);
  });
});

describe("the audit log's record of reads that matter", () => {
  it("records a failed job queued again by staff, and not a refused retry", async () => {
    const [job] = await shop.db
      .insert(jobs)
      .values({
        kind: "sweep-unused-uploads",
        payload: {},
        status: "failed",
        attempts: 5,
        lastError: "the database was away",
      })
      .returning({ id: jobs.id });
    const id = String(job?.id);
    const retried = await api(staff, "POST", `/admin/jobs/${id}/retry`);
    expect(retried.status).toBe(200);
    const { items } = await auditPage(owner, "?entityType=job");
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      actorId: staff.userId,
      entityType: "job",
      entityId: id,
      action: "retry",
      before: { kind: "sweep-unused-uploads", status: "failed", attempts: 5 },
      after: { status: "queued", attempts: 0 },
    });
    // Queued now, so a second retry is refused (409) and records nothing.
    expect((await api(staff, "POST", `/admin/jobs/${id}/retry`)).status).toBe(409);
    expect((await auditPage(owner, "?entityType=job")).items).toHaveLength(1);
  });

  it("records each export with who asked and its filters: the orders CSV and the GSTR-1 files", async () => {
    const orders = await shop.app.request("/api/admin/orders/export.csv?status=placed&q=meera", {
      headers: { Cookie: staff.cookie },
    });
    expect(orders.status).toBe(200);
    await orders.text();
    const gstr1 = await shop.app.request("/api/admin/tax/gstr1.csv?month=2026-10&section=b2cs", {
      headers: { Cookie: owner.cookie },
    });
    expect(gstr1.status).toBe(200);
    await gstr1.text();
    const { items } = await auditPage(owner, "?entityType=export");
    expect(
      items.map(({ actorId, entityId, action, after }) => ({ actorId, entityId, action, after })),
    ).toEqual([
      {
        actorId: owner.userId,
        entityId: "gstr1",
        action: "export_csv",
        after: { month: "2026-10", section: "b2cs" },
      },
      {
        actorId: staff.userId,
        entityId: "orders",
        action: "export_csv",
        after: { status: "placed", q: "meera" },
      },
    ]);
  });
});
