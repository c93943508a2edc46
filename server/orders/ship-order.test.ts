import { beforeAll, describe, expect, it } from "vitest";
import type { AdminOrderDetail, OrderDetail } from "../../common/orders.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { waitForMail } from "../../tests/mail.ts";
import { placeMovedCodOrder, saveAddress } from "../../tests/orders.ts";

const shop = setUpTestApp();
let admin: TestAccount;
let meera: TestAccount;
let addressId: string;
/** Plenty in stock in the seeded catalogue. */
const SLUG = "coconut-oil";

/** A cash-on-delivery order of Meera's, confirmed and packed by staff: ready to ship. */
const packedOrder = () => placeMovedCodOrder(shop, { shopper: meera, addressId, itemId: SLUG, staff: admin });

const ship = (number: string, body: Record<string, unknown>, as: TestAccount = admin) =>
  callApi(shop.app, "POST", `/api/admin/orders/${number}/ship`, { as, body });
const adminView = async (number: string) =>
  (
    (await callApi(shop.app, "GET", `/api/admin/orders/${number}`, { as: admin })).body as {
      order: AdminOrderDetail;
    }
  ).order;

beforeAll(async () => {
  admin = await signUpWithRole(shop, "staff@prakriti.example", "owner");
  meera = await signUpViaApp(shop.app, "meera@example.in");
  addressId = await saveAddress(shop.app, meera.cookie);
});

describe("shipping an order in one step", () => {
  it.each([
    [{ courier: "FedEx", trackingNumber: "AB1234" }, "courier"],
    [{ courier: "Delhivery", trackingNumber: "AB1" }, "trackingNumber"],
    [{ courier: "Delhivery", trackingNumber: "A".repeat(41) }, "trackingNumber"],
    [{ courier: "Delhivery", trackingNumber: "AB 1234" }, "trackingNumber"],
    [{ courier: "Delhivery", trackingNumber: "AB/1234" }, "trackingNumber"],
    [{ courier: "Delhivery", trackingNumber: "AB\u00001234" }, "trackingNumber"],
    [{ courier: "Delhivery" }, "trackingNumber"],
    [{ courier: "Other", trackingNumber: "AB1234", trackingUrl: "javascript:alert(1)" }, "trackingUrl"],
    [{ courier: "Other", trackingNumber: "AB1234", trackingUrl: "http://track.example.in" }, "trackingUrl"],
    [
      { courier: "Other", trackingNumber: "AB1234", trackingUrl: "https://pay-duty.example.in/AB1234" },
      "trackingUrl",
    ],
    [
      { courier: "Other", trackingNumber: "AB1234", trackingUrl: "https://shadowfax.in.example.in/x" },
      "trackingUrl",
    ],
    [{ courier: "Delhivery", trackingNumber: "AB1234", trackingUrl: "https://x.example.in" }, "trackingUrl"],
    [{ courier: "Delhivery", trackingNumber: "AB1234", status: "delivered" }, "status"],
  ])("refuses %j with a 400 naming %s and changes nothing", async (body, field) => {
    const number = await packedOrder();
    const response = await ship(number, body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(field);
    const order = await adminView(number);
    expect([order.status, order.courier, order.trackingNumber]).toEqual(["packed", null, null]);
  });

  it("sets the status, courier and tracking number together, and the customer gets the courier's link", async () => {
    const number = await packedOrder();
    const response = await ship(number, { courier: "Blue Dart", trackingNumber: " 77812-BD " });
    expect(response.status).toBe(200);
    const shipped = (response.body as { order: AdminOrderDetail }).order;
    expect([shipped.status, shipped.courier, shipped.trackingNumber]).toEqual([
      "shipped",
      "Blue Dart",
      "77812-BD",
    ]);
    expect(shipped.shippedAt).not.toBeNull();
    expect(shipped.events.at(-1)).toMatchObject({
      toStatus: "shipped",
      note: "Blue Dart, tracking 77812-BD",
    });

    const mine = await callApi(shop.app, "GET", `/api/orders/${number}`, { as: meera });
    expect(mine.status).toBe(200);
    expect((mine.body as { order: OrderDetail }).order.trackingUrl).toBe(
      "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo=77812-BD",
    );

    // Sent by the job worker after the change is committed.
    const mail = await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${number} has shipped$`),
    });
    expect(mail.subject).toBe(`Order ${number} has shipped`);
    // This shop has no GSTIN yet, so the order has no tax invoice to attach.
    expect(mail.attachments).toEqual([]);
    expect(mail.text).not.toContain("tax invoice");
    expect(mail.links).toContain(
      "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo=77812-BD",
    );
    expect(mail.html).toContain(
      'href="https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&#38;trackNo=77812-BD"',
    );
  });

  it("keeps the page staff give for a courier outside the list", async () => {
    const number = await packedOrder();
    const response = await ship(number, {
      courier: "Other",
      trackingNumber: "SF-99123",
      trackingUrl: "https://tracker.shadowfax.in/SF-99123",
    });
    expect(response.status).toBe(200);
    const mine = await callApi(shop.app, "GET", `/api/orders/${number}`, { as: meera });
    expect((mine.body as { order: OrderDetail }).order).toMatchObject({
      status: "shipped",
      courier: "Other",
      trackingUrl: "https://tracker.shadowfax.in/SF-99123",
    });
  });

  it("ships once: a second ship, or shipping an order not yet packed, is refused", async () => {
    const number = await packedOrder();
    const results = await Promise.all(
      ["DL-1111", "DL-2222"].map((trackingNumber) => ship(number, { courier: "Delhivery", trackingNumber })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const order = await adminView(number);
    expect(order.events.filter((event) => event.toStatus === "shipped")).toHaveLength(1);
    const winner = results.find((result) => result.status === 200)?.body as { order: AdminOrderDetail };
    expect(order.trackingNumber).toBe(winner.order.trackingNumber);
  });

  it("answers 403 to a customer and ships nothing", async () => {
    const number = await packedOrder();
    const response = await ship(number, { courier: "Delhivery", trackingNumber: "AB1234" }, meera);
    expect(response.status).toBe(403);
    expect((await adminView(number)).status).toBe("packed");
  });
});
