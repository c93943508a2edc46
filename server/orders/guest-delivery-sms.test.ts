import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { signUpOwnerStaffAndCustomer } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { smsMentioning, waitForMail } from "../../tests/mail.ts";
import { placeGuestOrderRequest, placeOrderRequest, putInCart, saveAddress } from "../../tests/orders.ts";
import { auditLog, orders } from "../db/schema.ts";
import { changeOrderStatus } from "./order-status.ts";

const shop = setUpTestApp();
let guests = 0;

/** A guest's COD order of one jar of coconut oil, at a mobile of its own. */
async function guestOrder(extra: Record<string, unknown> = {}) {
  guests += 1;
  const phone = `97${String(guests).padStart(8, "0")}`;
  const response = await placeGuestOrderRequest(shop.app, {
    email: `parcel-news-${guests}@example.in`,
    phone,
    items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
    ...extra,
  });
  expect(response.status).toBe(201);
  const { order } = (await response.json()) as { order: OrderDetail };
  return { number: order.number, phone, email: `parcel-news-${guests}@example.in` };
}

/** Staff move the order on to shipped, as the admin's order page does. */
async function ship(number: string) {
  const [row] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  const move = (to: "confirmed" | "packed" | "shipped" | "delivered") =>
    changeOrderStatus(
      shop.deps,
      { orderId: row?.id ?? "" },
      {
        to,
        actor: "admin",
        actorUserId: null,
        courier: "Delhivery",
        trackingNumber: `DLV${number.slice(-6)}`,
      },
    );
  for (const to of ["confirmed", "packed", "shipped"] as const) await move(to);
  return { deliver: () => move("delivered") };
}

const shippedText = (number: string) => `order ${number} has shipped`;

describe("guests' parcel news by SMS, the owner's choice", () => {
  it("is the owner's alone to switch, starts off, and is written in the audit log", async () => {
    const { owner, staff } = await signUpOwnerStaffAndCustomer(shop, "guest-sms");
    const path = "/api/admin/settings/guest-delivery-sms";
    expect((await callApi(shop.app, "GET", path, { as: owner })).body).toEqual({ on: false });
    expect((await callApi(shop.app, "PUT", path, { as: staff, body: { on: true } })).status).toBe(403);
    const refused = await callApi(shop.app, "PUT", path, { as: owner, body: { on: "yes" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ on: "on must be true or false." });

    expect(await callApi(shop.app, "PUT", path, { as: owner, body: { on: true } })).toEqual({
      status: 200,
      body: { on: true },
    });
    expect((await callApi(shop.app, "GET", path, { as: owner })).body).toEqual({ on: true });
    const entries = await shop.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "settings"), eq(auditLog.entityId, "guest-delivery-sms")));
    expect(entries).toEqual([{ before: { on: false }, after: { on: true } }]);
    await callApi(shop.app, "PUT", path, { as: owner, body: { on: false } });
  });

  it("off, a guest's parcel news goes by mail only; on, the guest is texted each step at the order's mobile", async () => {
    const { owner } = await signUpOwnerStaffAndCustomer(shop, "guest-sms-steps");
    const quiet = await guestOrder();
    await ship(quiet.number);
    await waitForMail(shop.dataDir, { to: quiet.email, subject: /shipped/i });
    expect(await smsMentioning(shop.dataDir, shippedText(quiet.number), 500)).toEqual([]);

    await callApi(shop.app, "PUT", "/api/admin/settings/guest-delivery-sms", {
      as: owner,
      body: { on: true },
    });
    const texted = await guestOrder();
    const parcel = await ship(texted.number);
    const [shipped] = await smsMentioning(shop.dataDir, shippedText(texted.number));
    expect(shipped).toContain(`To: ${texted.phone}`);
    expect(shipped).toContain(`tracking DLV${texted.number.slice(-6)}`);
    await parcel.deliver();
    const [delivered] = await smsMentioning(shop.dataDir, `order ${texted.number} is delivered`);
    // The link is the guest's own signed one: the guest has no account to sign in to.
    expect(delivered).toMatch(new RegExp(`/guest-order/${texted.number}\\?token=`));

    // A guest who chose WhatsApp hears there (the owner pays once); an account's order is told by its mail.
    const onWhatsApp = await guestOrder({ whatsappUpdates: true });
    await ship(onWhatsApp.number);
    const member = await signUpOwnerStaffAndCustomer(shop, "guest-sms-member");
    await putInCart(shop.db, member.customer.userId, [{ itemId: "coconut-oil" }]);
    const addressId = await saveAddress(shop.app, member.customer.cookie);
    const placed = await placeOrderRequest(shop.app, member.customer.cookie, {
      addressId,
      paymentMethod: "cod",
    });
    const { order: memberOrder } = (await placed.json()) as { order: OrderDetail };
    await ship(memberOrder.number);
    await waitForMail(shop.dataDir, {
      to: member.customer.email,
      subject: new RegExp(`${memberOrder.number} has shipped`),
    });
    expect(await smsMentioning(shop.dataDir, shippedText(onWhatsApp.number), 500)).toEqual([]);
    expect(await smsMentioning(shop.dataDir, shippedText(memberOrder.number), 500)).toEqual([]);
    await callApi(shop.app, "PUT", "/api/admin/settings/guest-delivery-sms", {
      as: owner,
      body: { on: false },
    });
  });
});
