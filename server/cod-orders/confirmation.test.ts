import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodConfirmPage, ToConfirmList } from "../../common/cod-confirm.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp, jsonRequest } from "../../tests/database.ts";
import { linkIn, waitForMail } from "../../tests/mail.ts";
import {
  asUser,
  type Customer,
  orderRowOf,
  placeCodOrder,
  setStock,
  signUpWithAddress,
  stockOf,
} from "../../tests/orders.ts";
import { readCodRules } from "../cod/cod-rules.ts";
import { codConfirmToken } from "../cod/confirm-link.ts";
import { auditLog, orderEvents, orders } from "../db/schema.ts";
import { lapseUnconfirmedOrders } from "./confirmation.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let owner: TestAccount;
let staff: TestAccount;
let meera: Customer;

const HOUR = 3_600_000;

async function placeCod(item = "coconut-oil", quantity = 1) {
  const order = await placeCodOrder(shop, meera, [{ itemId: item, quantity }]);
  return orderRowOf(shop.db, order.number);
}

const linkPath = (row: { id: string; number: string }, action = "") =>
  `/api/cod-confirm/${row.number}${action}?token=${codConfirmToken(shop.deps.authSecret, row.id)}`;
const post = (url: string, as?: TestAccount, body: unknown = {}) =>
  shop.app.request(
    url,
    as ? asUser(as.cookie, { method: "POST", body }) : jsonRequest({ method: "POST", body }),
  );
const statusOf = async (id: string) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;

beforeAll(async () => {
  shop = await createTestApp({ COD_CONFIRM_HOURS: "6" });
  owner = await signUpWithRole(shop, "owner@prakriti.example", "owner");
  staff = await signUpWithRole(shop, "staff@prakriti.example", "staff");
  meera = await signUpWithAddress(shop.app, "meera@example.in");
  await setStock(shop.db, "coconut-oil", 50);
});
afterAll(() => shop.close());

describe("placing a cash-on-delivery order asks the shopper to confirm it", () => {
  it("sets the deadline from COD_CONFIRM_HOURS and sends the one-tap link in the order's mail and by SMS", async () => {
    const before = Date.now();
    const order = await placeCod();
    expect(order.status).toBe("placed");
    const deadline = order.codConfirmBy?.getTime() ?? 0;
    expect(deadline - order.createdAt.getTime()).toBe(6 * HOUR);
    expect(deadline).toBeGreaterThanOrEqual(before + 6 * HOUR);

    const mail = await waitForMail(shop.dataDir, {
      to: "meera@example.in",
      subject: new RegExp(`^Order ${order.number} placed$`),
    });
    expect(mail.text).toContain("within 6 hours");
    const link = new URL(linkIn(mail, `/confirm-order/${order.number}`));
    expect(link.searchParams.get("token")).toBe(codConfirmToken(shop.deps.authSecret, order.id));

    const smsFolder = path.join(shop.dataDir, "sms");
    let sms: string[] = [];
    for (let tries = 0; tries < 100 && sms.length === 0; tries++) {
      const files = await readdir(smsFolder).catch(() => [] as string[]);
      sms = await Promise.all(files.map((file) => readFile(path.join(smsFolder, file), "utf8")));
      sms = sms.filter((text) => text.includes(order.number));
      if (sms.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sms).toHaveLength(1);
    expect(sms[0]).toContain("To: 9876543210");
    expect(sms[0]).toContain(link.toString());
  });

  it("answers the link's page only with the right token, the same 404 for a wrong one", async () => {
    const order = await placeCod();
    const page = await shop.app.request(linkPath(order));
    expect(page.status).toBe(200);
    const body = (await page.json()) as CodConfirmPage;
    expect(body).toMatchObject({ number: order.number, state: "waiting", paymentMethod: "cod" });
    expect(body.lines[0]).toMatchObject({ name: expect.any(String), quantity: 1 });
    expect(body.confirmBy).toBe(order.codConfirmBy?.toISOString());

    const other = await placeCod();
    const wrong = await shop.app.request(
      `/api/cod-confirm/${order.number}?token=${codConfirmToken(shop.deps.authSecret, other.id)}`,
    );
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await shop.app.request(`/api/cod-confirm/${order.number}?token=short`)).status).toBe(400);
    expect((await post(linkPath(order, "/confirm"), undefined, { status: "confirmed" })).status).toBe(400);
  });
});

describe("the shopper's answer", () => {
  it("confirms from the link: the order moves to confirmed (invoiced, packable); a second tap changes nothing", async () => {
    const order = await placeCod();
    const confirmed = await post(linkPath(order, "/confirm"));
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as CodConfirmPage).state).toBe("confirmed");
    const again = await post(linkPath(order, "/confirm"));
    expect(again.status).toBe(200);
    const events = await shop.db
      .select({ to: orderEvents.toStatus, actor: orderEvents.actor, note: orderEvents.note })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id));
    expect(events.filter((event) => event.to === "confirmed")).toEqual([
      { to: "confirmed", actor: "customer", note: "Confirmed by the shopper from the confirmation link" },
    ]);
    const packed = await shop.app.request(
      `/api/admin/orders/${order.number}/status`,
      asUser(staff.cookie, { method: "POST", body: { status: "packed" } }),
    );
    expect(packed.status).toBe(200);
  });

  it("cancels from the link: stock back, and it can no longer be confirmed", async () => {
    const stock = await stockOf(shop.db, "coconut-oil");
    const order = await placeCod("coconut-oil", 2);
    expect(await stockOf(shop.db, "coconut-oil")).toBe((stock ?? 0) - 2);
    const cancelled = await post(linkPath(order, "/cancel"));
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as CodConfirmPage).state).toBe("cancelled");
    expect(await stockOf(shop.db, "coconut-oil")).toBe(stock);
    const late = await post(linkPath(order, "/confirm"));
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe(
      "not_waiting_for_confirmation",
    );
  });
});

describe("staff and the unconfirmed order", () => {
  it("refuses to pack or ship an unconfirmed order with a 409 that says why", async () => {
    const order = await placeCod();
    for (const body of [
      { status: "packed" },
      { status: "shipped", courier: "Delhivery", trackingNumber: "DLV12345678" },
    ]) {
      const response = await shop.app.request(
        `/api/admin/orders/${order.number}/status`,
        asUser(staff.cookie, { method: "POST", body }),
      );
      expect(response.status).toBe(409);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("invalid_transition");
      expect(error.message).toMatch(/cash-on-delivery order is not confirmed yet/);
    }
    expect(await statusOf(order.id)).toBe("placed");
  });

  it("lists the waiting orders with the mobile, and confirms or cancels them from the list, audited", async () => {
    const first = await placeCod();
    const second = await placeCod();
    const list = await shop.app.request("/api/admin/cod-confirm", asUser(staff.cookie));
    expect(list.status).toBe(200);
    const body = (await list.json()) as ToConfirmList;
    expect(body.confirmHours).toBe(6);
    expect(body.canChangeHours).toBe(false);
    const row = body.orders.find((each) => each.number === first.number);
    expect(row).toMatchObject({ phone: "9876543210", name: "Meera Iyer", items: 1 });

    expect((await post(`/api/admin/cod-confirm/${first.number}/confirm`, staff)).status).toBe(200);
    // Half of a UTF-16 pair cannot be stored in the history's JSON: refused by the text rule, not a 500.
    const broken = await post(`/api/admin/cod-confirm/${second.number}/cancel`, staff, {
      reason: "Shopper \ud800",
    });
    expect(broken.status).toBe(400);
    expect(await statusOf(second.id)).toBe("placed");
    const cancelled = await post(`/api/admin/cod-confirm/${second.number}/cancel`, staff, {
      reason: "Shopper did not order this",
    });
    expect(cancelled.status).toBe(200);
    expect(await statusOf(first.id)).toBe("confirmed");
    expect(await statusOf(second.id)).toBe("cancelled");

    const after = (await (
      await shop.app.request("/api/admin/cod-confirm", asUser(staff.cookie))
    ).json()) as ToConfirmList;
    expect(after.orders.map((each) => each.number)).not.toContain(first.number);
    expect(after.orders.map((each) => each.number)).not.toContain(second.number);
    const audit = await shop.db
      .select({ entity: auditLog.entityId, actor: auditLog.actorEmail, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.entityType, "order"));
    expect(audit.find((entry) => entry.entity === first.number)).toMatchObject({
      actor: "staff@prakriti.example",
      after: { status: "confirmed", note: "Confirmed with the shopper by staff" },
    });
    expect(audit.find((entry) => entry.entity === second.number)).toMatchObject({
      after: { status: "cancelled", note: "Not confirmed: cancelled by staff. Shopper did not order this" },
    });
  });

  it("is staff's only: 401 signed out, 403 for a customer", async () => {
    expect((await shop.app.request("/api/admin/cod-confirm")).status).toBe(401);
    expect((await shop.app.request("/api/admin/cod-confirm", asUser(meera.cookie))).status).toBe(403);
    expect((await post("/api/admin/cod-confirm/PN-2026-000001/confirm", meera)).status).toBe(403);
  });
});

describe("the owner's hours", () => {
  it("are the owner's to change (audited), apply to orders placed after, and are checked", async () => {
    const put = (as: TestAccount, body: unknown) =>
      shop.app.request("/api/admin/cod-confirm/settings", asUser(as.cookie, { method: "PUT", body }));
    expect((await put(staff, { confirmHours: 12 })).status).toBe(403);
    expect((await put(owner, { confirmHours: 0 })).status).toBe(400);
    expect((await put(owner, { confirmHours: 12, extra: true })).status).toBe(400);
    const saved = await put(owner, { confirmHours: 12 });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ confirmHours: 12 });
    const order = await placeCod();
    expect((order.codConfirmBy?.getTime() ?? 0) - order.createdAt.getTime()).toBe(12 * HOUR);
    const [entry] = await shop.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "cod_rule"), eq(auditLog.entityId, "confirm-hours")));
    expect(entry).toEqual({ before: { confirmHours: null }, after: { confirmHours: 12 } });
    // Kept in the COD rules' row, the hours do not count as the owner saving the COD switches.
    expect(await readCodRules(shop.db, shop.env)).toMatchObject({
      enabled: shop.env.COD_ENABLED,
      maxOrderPaise: shop.env.COD_MAX_ORDER_PAISE,
    });
    expect((await put(owner, { confirmHours: 6 })).status).toBe(200);
  });
});

describe("the clock", () => {
  it("cancels orders left unconfirmed past their deadline, stock back and the shopper told; leaves the rest", async () => {
    await setStock(shop.db, "face-wash-powder", 10);
    const late = await placeCod("face-wash-powder", 3);
    const confirmed = await placeCod("face-wash-powder", 1);
    await post(linkPath(confirmed, "/confirm"));
    const early = await placeCod("face-wash-powder", 1);
    // An order from before confirmations began: no deadline, never lapsed.
    const old = await placeCod("face-wash-powder", 1);
    await shop.db.update(orders).set({ codConfirmBy: null }).where(eq(orders.id, old.id));
    await shop.db
      .update(orders)
      .set({ codConfirmBy: new Date(Date.now() + 48 * HOUR) })
      .where(eq(orders.id, early.id));
    expect(await stockOf(shop.db, "face-wash-powder")).toBe(4);

    const lapsed = await lapseUnconfirmedOrders(shop.deps, new Date(Date.now() + 7 * HOUR));
    expect(lapsed).toBeGreaterThanOrEqual(1);
    expect(await statusOf(late.id)).toBe("cancelled");
    expect(await statusOf(confirmed.id)).toBe("confirmed");
    expect(await statusOf(early.id)).toBe("placed");
    expect(await statusOf(old.id)).toBe("placed");
    expect(await stockOf(shop.db, "face-wash-powder")).toBe(7);
    const [event] = await shop.db
      .select({ actor: orderEvents.actor, note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, late.id), eq(orderEvents.toStatus, "cancelled")));
    expect(event).toEqual({ actor: "system", note: "Not confirmed within 6 hours" });
    const told = await waitForMail(shop.dataDir, {
      to: "meera@example.in",
      subject: new RegExp(`${late.number} cancelled`),
    });
    expect(told.text).toContain("Nothing was charged");
    // Run again: nothing more to do.
    expect(await lapseUnconfirmedOrders(shop.deps, new Date(Date.now() + 7 * HOUR))).toBe(0);
  });

  it("refuses a link's confirmation after the deadline, before the lapse job ran, and cancels the order then (issue 40)", async () => {
    const order = await placeCod();
    await shop.db
      .update(orders)
      .set({ codConfirmBy: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, order.id));
    const late = await post(linkPath(order, "/confirm"));
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "not_waiting_for_confirmation",
      message: expect.stringContaining("was cancelled"),
    });
    expect(await statusOf(order.id)).toBe("cancelled");
  });

  it("counts wrong tokens against the client, as a guest order's link does (issue 40)", async () => {
    const limited = await createTestApp({ GUEST_ORDER_LINK_MISSES_PER_CLIENT: "3" });
    try {
      const misses = [];
      for (let i = 0; i < 5; i++) {
        const answer = await limited.app.request(`/api/cod-confirm/PN-2026-000001?token=${"a".repeat(43)}`);
        misses.push(answer.status);
      }
      expect(misses).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
