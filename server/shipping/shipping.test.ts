import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRupees } from "../../common/money.ts";
import { makeAdmin, signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp } from "../../tests/database.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../../tests/fake-shiprocket.ts";
import { linkIn, mailsTo, waitForMail } from "../../tests/mail.ts";
import { placeMovedCodOrder, saveAddress, stockOf } from "../../tests/orders.ts";
import { orderEvents, orderRto, orders, products, shipmentScans, shipments } from "../db/schema.ts";
import { orderWithPayment } from "../money/ledger.ts";
import { orderNotice } from "../orders/order-sms.ts";
import { POLL_AFTER_MS, pollQuietShipments } from "./shipments.ts";
import { parseShiprocketTime, shiprocketCity, shiprocketStatus } from "./shiprocket.ts";

let fake: FakeShiprocket;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let admin: TestAccount;
let meera: TestAccount;
let addressId: string;
const SLUG = "coconut-oil";
const MEERA = "meera.ship@example.in";

/** A cash-on-delivery order of Meera's, confirmed by staff (packed too unless asked not to). */
const readyOrder = (pack = true) =>
  placeMovedCodOrder(shop, {
    shopper: meera,
    addressId,
    itemId: SLUG,
    staff: admin,
    statuses: pack ? ["confirmed", "packed"] : ["confirmed"],
  });

const book = (number: string, body: Record<string, unknown>) =>
  callApi(shop.app, "POST", `/api/admin/shipping/orders/${number}/book`, { as: admin, body });
const orderStatus = async (number: string) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]?.status;
const orderIdOf = async (number: string) =>
  (await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number)))[0]?.id ?? "";
const shipmentOf = async (number: string) =>
  (
    await shop.db
      .select({ shipment: shipments })
      .from(shipments)
      .innerJoin(orders, eq(orders.id, shipments.orderId))
      .where(eq(orders.number, number))
  ).map((row) => row.shipment);
const webhook = (body: unknown, key = fake.webhookToken) =>
  shop.app.request("/api/shipping/tracking-updates", {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
  });
/** A call to the fake Shiprocket as any API user would make it, signed in. */
async function shiprocketCall(method: string, path: string, body: unknown) {
  const login = await fetch(`${fake.url}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: fake.email, password: fake.password }),
  });
  const { token } = (await login.json()) as { token: string };
  return fetch(`${fake.url}${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}
/** Whether each of the order's views says its returned parcel is back (the shopper's, the staff's list and page). */
async function parcelBackAsShown(number: string) {
  const [detail, list, adminDetail, adminList] = await Promise.all([
    callApi(shop.app, "GET", `/api/orders/${number}`, { as: meera }),
    callApi(shop.app, "GET", "/api/orders", { as: meera }),
    callApi(shop.app, "GET", `/api/admin/orders/${number}`, { as: admin }),
    callApi(shop.app, "GET", `/api/admin/orders?q=${number}`, { as: admin }),
  ]);
  type Listed = { orders: { number: string; parcelBack: boolean }[] };
  return [
    (detail.body as { order: { parcelBack: boolean } }).order.parcelBack,
    (list.body as Listed).orders.find((order) => order.number === number)?.parcelBack,
    (adminDetail.body as { order: { parcelBack: boolean } }).order.parcelBack,
    (adminList.body as Listed).orders.find((order) => order.number === number)?.parcelBack,
  ];
}
/** Books an order with the cheapest courier and returns its AWB. */
async function booked(number: string) {
  const response = await book(number, { rule: "cheapest" });
  expect(response.status).toBe(201);
  return (response.body as { shipment: { awb: string } }).shipment.awb;
}

beforeAll(async () => {
  fake = await startFakeShiprocket();
  shop = await createTestApp(fake.env);
  await shop.db
    .update(products)
    .set({ weightGrams: 220, lengthCm: 6, breadthCm: 6, heightCm: 16 })
    .where(eq(products.slug, SLUG));
  admin = await signUpWithRole(shop, "staff.ship@prakriti.example", "owner");
  meera = await signUpViaApp(shop.app, MEERA);
  addressId = await saveAddress(shop.app, meera.cookie);
});
afterAll(async () => {
  await shop.close();
  await fake.stop();
});

describe("Shiprocket's words", () => {
  it("reads its times as Indian time and maps its status labels and ids", () => {
    expect(parseShiprocketTime("2026-11-26 14:05:09")?.toISOString()).toBe("2026-11-26T08:35:09.000Z");
    expect(parseShiprocketTime("26 11 2026 14:05:09")?.toISOString()).toBe("2026-11-26T08:35:09.000Z");
    expect(parseShiprocketTime("yesterday")).toBeNull();
    expect(shiprocketStatus("OUT FOR DELIVERY")).toBe("out_for_delivery");
    expect(shiprocketStatus("", "7")).toBe("delivered");
    expect(shiprocketStatus("MANIFEST GENERATED", "5")).toBeNull();
  });
});

describe("booking a courier", () => {
  it("lists the couriers serving the PIN with price and estimate, cheapest and fastest marked", async () => {
    const number = await readyOrder();
    const response = await callApi(shop.app, "GET", `/api/admin/shipping/orders/${number}/couriers`, {
      as: admin,
    });
    expect(response.status).toBe(200);
    const { couriers, parcel } = response.body as {
      couriers: {
        name: string;
        ratePaise: number;
        estimatedDays: number;
        cheapest: boolean;
        fastest: boolean;
      }[];
      parcel: { weightGrams: number };
    };
    expect(parcel.weightGrams).toBe(220 + 150);
    expect(couriers.length).toBe(3);
    expect(couriers.filter((c) => c.cheapest).map((c) => c.name)).toEqual(["Xpressbees Surface"]);
    expect(couriers.filter((c) => c.fastest).map((c) => c.name)).toEqual(["Blue Dart Air"]);
    expect(couriers[0]?.ratePaise).toBeGreaterThan(0);
  });

  it("is for staff only", async () => {
    const number = await readyOrder();
    expect(
      (await callApi(shop.app, "GET", `/api/admin/shipping/orders/${number}/couriers`, { as: meera })).status,
    ).toBe(403);
    expect((await book(number, { courierId: "10", price: 1 })).status).toBe(400);
  });

  it("books the chosen courier, records the parcel, packs a confirmed order, and the label is a PDF", async () => {
    const number = await readyOrder(false);
    const response = await book(number, { courierId: "33" });
    expect(response.status).toBe(201);
    const { shipment } = response.body as {
      shipment: { awb: string; courier: string; status: string; chargesPaise: number };
    };
    expect(shipment).toMatchObject({ courier: "Blue Dart Air", status: "pickup_scheduled" });
    expect(shipment.chargesPaise).toBeGreaterThan(0);
    expect(await orderStatus(number)).toBe("packed");
    const [row] = await shipmentOf(number);
    expect(row?.aggregatorOrderId).toBeTruthy();
    expect(row?.aggregatorShipmentId).toBeTruthy();
    expect(row?.labelUrl).toContain("/labels/");
    const label = await shop.app.request(`/api/admin/shipping/orders/${number}/label.pdf`, {
      headers: { Cookie: admin.cookie },
    });
    expect(label.headers.get("Content-Type")).toBe("application/pdf");
    expect(
      Buffer.from(await label.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("books once however many times it is clicked at the same moment", async () => {
    const number = await readyOrder();
    const adhocBefore = fake.calls.filter((call) => call === "POST /orders/create/adhoc").length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => book(number, { courierId: "10" })));
    expect(answers.filter((answer) => answer.status === 201).length).toBe(1);
    for (const answer of answers) expect([200, 201, 409]).toContain(answer.status);
    expect(fake.calls.filter((call) => call === "POST /orders/create/adhoc").length - adhocBefore).toBe(1);
    expect((await shipmentOf(number)).length).toBe(1);
    // Clicked again later: the same booking, not a second one.
    const again = await book(number, { courierId: "10" });
    expect(again.status).toBe(200);
    expect((again.body as { alreadyBooked: boolean }).alreadyBooked).toBe(true);
  });

  it("says in words when the PIN is not served, and records nothing", async () => {
    const number = await readyOrder();
    fake.unservedPins.add("560038");
    try {
      const response = await book(number, { rule: "cheapest" });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ error: { code: "pin_not_served" } });
      expect((response.body as { error: { message: string } }).error.message).toMatch(/PIN/);
    } finally {
      fake.unservedPins.delete("560038");
    }
    expect(await shipmentOf(number)).toEqual([]);
    expect(await orderStatus(number)).toBe("packed");
  });

  it("says the wallet is empty, cancels the order Shiprocket made, and books again under a new reference", async () => {
    const number = await readyOrder();
    const before = fake.wallet.paise;
    fake.wallet.paise = 100;
    try {
      const response = await book(number, { courierId: "10" });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ error: { code: "wallet_empty" } });
    } finally {
      fake.wallet.paise = before;
    }
    expect((await shipmentOf(number)).map((row) => [row.status, row.reference, row.awb])).toEqual([
      ["cancelled", number, null],
    ]);
    expect(fake.shipments.filter((entry) => entry.channelOrderId === number).map((e) => e.status)).toEqual([
      "CANCELED",
    ]);
    // Shiprocket refuses the cancelled order's id for a new order (422): the shop does not send it again.
    const reused = await shiprocketCall("POST", "/orders/create/adhoc", {
      ...(fake.shipments.find((entry) => entry.channelOrderId === number)?.created ?? {}),
    });
    expect(reused.status).toBe(422);
    // Recharged, it books, under the next reference; a refusal again would take a third.
    const again = await book(number, { courierId: "10" });
    expect(again.status).toBe(201);
    expect((again.body as { shipment: { reference: string } }).shipment.reference).toBe(`${number}-2`);
    expect(
      fake.shipments.filter((entry) => entry.channelOrderId.startsWith(number)).map((e) => e.status),
    ).toEqual(["CANCELED", "PICKUP SCHEDULED"]);
    expect((await shipmentOf(number)).map((row) => row.status).sort()).toEqual([
      "cancelled",
      "pickup_scheduled",
    ]);
  });

  it("tells Shiprocket the cash to collect as sub_total after every discount, and shows staff that figure", async () => {
    const number = await readyOrder();
    // A discounted COD order: ₹50 off, the shipping charged (the totals' rule holds).
    const [order] = await shop.db.select().from(orders).where(eq(orders.number, number));
    if (!order) throw new Error("no order");
    await shop.db
      .update(orders)
      .set({ discountPaise: 5_000, shippingPaise: 4_900, totalPaise: order.subtotalPaise - 5_000 + 4_900 })
      .where(eq(orders.id, order.id));
    const total = order.subtotalPaise - 5_000 + 4_900;
    const response = await book(number, { courierId: "24" });
    expect(response.status).toBe(201);
    const created = fake.shipments.find((entry) => entry.channelOrderId === number)?.created;
    expect(created).toMatchObject({
      payment_method: "COD",
      sub_total: total / 100,
      shipping_charges: 0,
      total_discount: 0,
      giftwrap_charges: 0,
      transaction_charges: 0,
    });
    const view = await callApi(shop.app, "GET", `/api/admin/shipping/orders/${number}`, { as: admin });
    const shipment = (
      view.body as { shipment: { codAmountPaise: number; chargesPaise: number; rtoChargesPaise: number } }
    ).shipment;
    expect(shipment.codAmountPaise).toBe(total);
    // The charge is the serviceability quote of the courier booked (the AWB's answer has no price).
    expect(shipment.chargesPaise).toBe((38 + 30) * 100);
    expect(shipment.rtoChargesPaise).toBe(38 * 100);
    const [event] = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "parcel_booked")));
    expect(event?.note).toContain(`the courier collects ${formatRupees(total)}`);
  });

  it("asks for the manifest after the pickup", async () => {
    const number = await readyOrder();
    await booked(number);
    const [row] = await shipmentOf(number);
    expect(row?.manifestUrl).toMatch(/MANIFEST-/);
    const entry = fake.shipments.find((each) => each.channelOrderId === number);
    expect(entry).toMatchObject({ pickupRequested: true, manifested: true });
    const calls = fake.calls.filter((call) => /generate\/pickup|manifests\/generate/.test(call));
    expect(calls.at(-2)).toBe("POST /courier/generate/pickup");
    expect(calls.at(-1)).toBe("POST /manifests/generate");
  });

  it("sends a city longer than Shiprocket's 30 characters cut at a word, the whole name in the address", async () => {
    expect(shiprocketCity("Sri Ganganagar", "Near the clock tower")).toEqual({
      city: "Sri Ganganagar",
      line2: "Near the clock tower",
    });
    const long = "Thiruvananthapuram Cantonment North Extension";
    const number = await readyOrder();
    await shop.db.update(orders).set({ shipCity: long }).where(eq(orders.number, number));
    expect((await book(number, { rule: "cheapest" })).status).toBe(201);
    const created = fake.shipments.find((entry) => entry.channelOrderId === number)?.created;
    expect(String(created?.billing_city).length).toBeLessThanOrEqual(30);
    expect(created?.billing_city).toBe("Thiruvananthapuram Cantonment");
    expect(created?.billing_address_2).toContain(long);
  });

  it("names the products without a weight", async () => {
    const number = await readyOrder();
    await shop.db.update(products).set({ weightGrams: null }).where(eq(products.slug, SLUG));
    try {
      const response = await book(number, { rule: "cheapest" });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ error: { code: "weight_missing" } });
      expect((response.body as { error: { message: string } }).error.message).toMatch(/Coconut/i);
    } finally {
      await shop.db.update(products).set({ weightGrams: 220 }).where(eq(products.slug, SLUG));
    }
    expect(await shipmentOf(number)).toEqual([]);
  });

  it("signs in again when Shiprocket refuses an old token", async () => {
    const number = await readyOrder();
    const logins = fake.logins;
    fake.expireTokens();
    expect((await book(number, { rule: "fastest" })).status).toBe(201);
    expect(fake.logins).toBe(logins + 1);
  });

  it("books several orders together and prints their labels as one PDF", async () => {
    const numbers = [await readyOrder(), await readyOrder(), await readyOrder()];
    const response = await callApi(shop.app, "POST", "/api/admin/shipping/bulk", {
      as: admin,
      body: { numbers, rule: "cheapest" },
    });
    expect(response.status).toBe(200);
    const { results } = response.body as { results: { number: string; ok: boolean }[] };
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    const labels = await shop.app.request(`/api/admin/shipping/labels.pdf?orders=${numbers.join(",")}`, {
      headers: { Cookie: admin.cookie },
    });
    expect(labels.status).toBe(200);
    const text = Buffer.from(await labels.arrayBuffer()).toString("latin1");
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)?.length).toBe(3);
  });

  it("cancels the booked parcel at Shiprocket before the order is cancelled", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    const stock = await stockOf(shop.db, SLUG);
    const response = await callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, {
      as: admin,
      body: { status: "cancelled" },
    });
    expect(response.status).toBe(200);
    expect(fake.byAwb(awb).status).toBe("CANCELED");
    expect((await shipmentOf(number)).map((row) => row.status)).toEqual(["cancelled"]);
    expect(await stockOf(shop.db, SLUG)).toBe((stock ?? 0) + 1);
  });

  it("keeps weights and box sizes of products and combos, strictly", async () => {
    const path = "/api/admin/shipping/parcel-sizes/combo/skincare-combo";
    const size = { weightGrams: 640, lengthCm: 20, breadthCm: 15, heightCm: 10 };
    expect((await callApi(shop.app, "PUT", path, { as: admin, body: size })).status).toBe(200);
    expect((await callApi(shop.app, "GET", path, { as: admin })).body).toEqual({ size });
    const bad = await callApi(shop.app, "PUT", path, { as: admin, body: { ...size, weightGrams: 0 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("weightGrams");
    expect((await callApi(shop.app, "PUT", path, { as: admin, body: { ...size, stock: 9 } })).status).toBe(
      400,
    );
    expect((await callApi(shop.app, "PUT", path, { as: meera, body: size })).status).toBe(403);
  });

  it("lists the orders ready for a courier, not those booked", async () => {
    const waiting = await readyOrder();
    const sent = await readyOrder();
    await booked(sent);
    const response = await callApi(shop.app, "GET", "/api/admin/shipping/ready", { as: admin });
    const numbers = (response.body as { orders: { number: string }[] }).orders.map((order) => order.number);
    expect(numbers).toContain(waiting);
    expect(numbers).not.toContain(sent);
  });

  it("is not offered without a Shiprocket account", async () => {
    const bare = await createTestApp();
    try {
      const staff = await signUpViaApp(bare.app, "staff.bare@prakriti.example");
      await makeAdmin(bare, staff);
      const response = await callApi(bare.app, "GET", "/api/admin/shipping", { as: staff });
      expect(response.body).toMatchObject({ connected: false, service: null });
    } finally {
      await bare.close();
    }
  });
});

describe("tracking moves the order", () => {
  it("ignores updates without the right x-api-key, answering 200", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    const response = await webhook(fake.webhookBody(awb), "not-the-token-at-all");
    expect(response.status).toBe(200);
    expect(await orderStatus(number)).toBe("packed");
    // The shop's same-origin rule lets Shiprocket through (no Origin, no cookie) with the right key.
    expect((await webhook(fake.webhookBody(awb))).status).toBe(200);
    expect(await orderStatus(number)).toBe("shipped");
  });

  it("applies each scan once and in the courier's order, whatever order the updates come in", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    const t = Date.now() - 60 * 60_000;
    const picked = fake.scan(awb, "PICKED UP", new Date(t));
    const transit = fake.scan(awb, "IN TRANSIT", new Date(t + 60_000));
    const out = fake.scan(awb, "OUT FOR DELIVERY", new Date(t + 120_000));
    const delivered = fake.scan(awb, "DELIVERED", new Date(t + 180_000));
    // The last update first, then older ones, then all again.
    expect((await webhook(fake.webhookBody(awb, [delivered]))).status).toBe(200);
    expect((await webhook(fake.webhookBody(awb, [picked, transit]))).status).toBe(200);
    expect((await webhook(fake.webhookBody(awb, [out]))).status).toBe(200);
    expect((await webhook(fake.webhookBody(awb))).status).toBe(200);
    const [row] = await shipmentOf(number);
    expect(row?.status).toBe("delivered");
    expect(await orderStatus(number)).toBe("delivered");
    const scans = await shop.db
      .select()
      .from(shipmentScans)
      .where(eq(shipmentScans.shipmentId, row?.id ?? ""));
    expect(scans.length).toBe(4);
    const view = await callApi(shop.app, "GET", `/api/orders/${number}/shipment`, { as: meera });
    const shown = (view.body as { shipment: { scans: { label: string }[]; chargesPaise: null } }).shipment;
    expect(shown.scans.map((scan) => scan.label)).toEqual([
      "PICKED UP",
      "IN TRANSIT",
      "OUT FOR DELIVERY",
      "DELIVERED",
    ]);
    expect(shown.chargesPaise).toBeNull();
    await waitForMail(shop.dataDir, { to: MEERA, subject: new RegExp(`${number} has shipped`) });
    // "Out for delivery" came after "delivered" was known: the shopper is not told it is on its way again.
    await waitForMail(shop.dataDir, { to: MEERA, subject: new RegExp(`${number} delivered`) });
  });

  it("applies the same update sent many times at once once: one shipped event, one mail", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    fake.scan(awb, "IN TRANSIT");
    fake.scan(awb, "OUT FOR DELIVERY");
    const body = fake.webhookBody(awb);
    const answers = await Promise.all(Array.from({ length: 8 }, () => webhook(body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const [row] = await shipmentOf(number);
    const scans = await shop.db
      .select()
      .from(shipmentScans)
      .where(eq(shipmentScans.shipmentId, row?.id ?? ""));
    expect(scans.length).toBe(3);
    const [order] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    const shippedEvents = await shop.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order?.id ?? ""), eq(orderEvents.toStatus, "shipped")));
    expect(shippedEvents.length).toBe(1);
    await waitForMail(shop.dataDir, { to: MEERA, subject: new RegExp(`${number} is out for delivery`) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mails = (await mailsTo(shop.dataDir, MEERA)).filter((mail) =>
      mail.subject.includes(`${number} is out`),
    );
    expect(mails.length).toBe(1);
  });

  it("ignores a scan dated in the future, so the genuine scans after it still count", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP", new Date(Date.now() - 60 * 60_000));
    const future = fake.scan(awb, "OUT FOR DELIVERY", new Date("2099-01-01T10:00:00Z"));
    fake.byAwb(awb).scans.pop();
    await webhook(fake.webhookBody(awb, [...fake.byAwb(awb).scans, future]));
    const [row] = await shipmentOf(number);
    expect(row?.status).toBe("picked_up");
    const stored = await shop.db
      .select()
      .from(shipmentScans)
      .where(eq(shipmentScans.shipmentId, row?.id ?? ""));
    expect(stored.map((scan) => scan.label)).toEqual(["PICKED UP"]);
    fake.scan(awb, "UNDELIVERED");
    await webhook(fake.webhookBody(awb));
    expect((await shipmentOf(number))[0]?.status).toBe("undelivered");
  });

  it("believes a delivered or returned scan only as Shiprocket's tracking tells it", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    const [picked] = fake.byAwb(awb).scans;
    // A body forged with the right key: DELIVERED, which Shiprocket's tracking does not show.
    const forged = {
      ...fake.webhookBody(awb),
      scans: [
        picked,
        {
          ...picked,
          "sr-status": "7",
          "sr-status-label": "DELIVERED",
          status: "EOD-38",
          activity: "Delivered",
        },
      ],
    };
    expect((await webhook(forged)).status).toBe(200);
    expect(await orderStatus(number)).toBe("shipped");
    expect((await shipmentOf(number))[0]?.status).toBe("picked_up");
    // The genuine delivery, in Shiprocket's tracking too, is applied.
    fake.scan(awb, "DELIVERED");
    await webhook(fake.webhookBody(awb));
    expect(await orderStatus(number)).toBe("delivered");
  });

  it("reads a webhook's status id from shipment_status_id, not current_status_id (another table)", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    const body = {
      ...fake.webhookBody(awb, []),
      current_status: "IN TRANSIT AT HUB",
      shipment_status: "IN TRANSIT AT HUB",
      // 7 would be DELIVERED in the shipment statuses' table; here it is a scan code.
      current_status_id: 7,
      shipment_status_id: 18,
      scans: [],
    };
    expect((await webhook(body)).status).toBe(200);
    expect((await shipmentOf(number))[0]?.status).toBe("in_transit");
    expect(await orderStatus(number)).toBe("shipped");
  });

  it("asks Shiprocket after parcels no update has told of for a while", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    fake.scan(awb, "IN TRANSIT");
    await shop.db
      .update(shipments)
      .set({ lastHeardAt: new Date(Date.now() - POLL_AFTER_MS - 60_000) })
      .where(eq(shipments.awb, awb));
    expect(await pollQuietShipments(shop.deps)).toBeGreaterThanOrEqual(1);
    expect((await shipmentOf(number))[0]?.status).toBe("in_transit");
    expect(await orderStatus(number)).toBe("shipped");
  });
});

describe("the shopper's SMS, for accounts made with a mobile number", () => {
  it("says out for delivery, delivered and not delivered, each with the order's link", async () => {
    const number = await readyOrder();
    const [order] = await shop.db.select(orderWithPayment).from(orders).where(eq(orders.number, number));
    if (!order) throw new Error("no order");
    const link = `https://shop.example/orders/${number}`;
    expect(orderNotice(shop.env, order, "out_for_delivery", link)?.text).toMatch(
      /out for delivery today\. Keep Rs\./,
    );
    expect(orderNotice(shop.env, order, "delivered", link)?.text).toContain(link);
    expect(orderNotice(shop.env, order, "undelivered", link)?.text).toMatch(
      /could not deliver.*Choose a day/,
    );
  });
});

describe("a parcel the courier could not deliver", () => {
  it("opens a task; the shopper asks for another day, Shiprocket is told, and the parcel is delivered", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    fake.scan(awb, "UNDELIVERED");
    await webhook(fake.webhookBody(awb));
    expect((await shipmentOf(number))[0]).toMatchObject({ status: "undelivered", ndrState: "open" });
    const missed = await waitForMail(shop.dataDir, {
      to: MEERA,
      subject: new RegExp(`${number}: the courier could not deliver`),
    });
    expect(linkIn(missed, `/orders/${number}`)).toContain(`/orders/${number}`);
    const list = await callApi(shop.app, "GET", "/api/admin/shipping/undelivered", { as: admin });
    expect((list.body as { parcels: { number: string }[] }).parcels.map((p) => p.number)).toContain(number);

    const tomorrow = new Date(Date.now() + 330 * 60_000 + 86_400_000).toISOString().slice(0, 10);
    const asked = await callApi(shop.app, "POST", `/api/orders/${number}/delivery-attempt`, {
      as: meera,
      body: { date: tomorrow, line1: "12, Lotus Apartments, 3rd Cross, Flat 4B" },
    });
    expect(asked.status).toBe(200);
    // The corrected address went through Shiprocket's address update, before the re-attempt, which carries
    // only its documented action and comment (the day in the comment's words).
    const entry = fake.byAwb(awb);
    expect(entry.addressUpdates).toEqual([
      expect.objectContaining({
        order_id: entry.orderId,
        shipping_address: "12, Lotus Apartments, 3rd Cross, Flat 4B",
        shipping_country: "India",
      }),
    ]);
    expect(entry.ndrActions).toEqual([{ action: "re-attempt", comments: expect.stringContaining(tomorrow) }]);
    const calls = fake.calls.filter((call) => call.includes("/address/update") || call.includes("/ndr/"));
    expect(calls.slice(-2).map((call) => call.split(" ")[1]?.split("/")[1])).toEqual(["orders", "ndr"]);
    // The order's own address follows, and its history says so.
    const [moved] = await shop.db.select().from(orders).where(eq(orders.number, number));
    expect(moved?.shipLine1).toBe("12, Lotus Apartments, 3rd Cross, Flat 4B");
    const said = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, moved?.id ?? ""), eq(orderEvents.kind, "address")));
    expect(said.map((row) => row.note)).toEqual([
      expect.stringMatching(/corrected by the shopper.*sent to Shiprocket/),
    ]);
    // Asked twice: the second is refused, Shiprocket hears once.
    const twice = await callApi(shop.app, "POST", `/api/orders/${number}/delivery-attempt`, {
      as: meera,
      body: { date: tomorrow },
    });
    expect(twice.status).toBe(409);
    expect(fake.byAwb(awb).ndrActions.length).toBe(1);

    fake.scan(awb, "OUT FOR DELIVERY");
    await webhook(fake.webhookBody(awb));
    await waitForMail(shop.dataDir, { to: MEERA, subject: new RegExp(`${number} is out for delivery`) });
    fake.scan(awb, "DELIVERED", new Date(Date.now() + 1000));
    await webhook(fake.webhookBody(awb));
    expect((await shipmentOf(number))[0]).toMatchObject({ status: "delivered", ndrState: "closed" });
    expect(await orderStatus(number)).toBe("delivered");
  });

  it("the owner sends it back; received back, the stock returns with a credit note", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "PICKED UP");
    fake.scan(awb, "UNDELIVERED");
    await webhook(fake.webhookBody(awb));
    // Two staff clicking at once: Shiprocket hears one choice.
    const choices = await Promise.all(
      Array.from({ length: 4 }, () =>
        callApi(shop.app, "POST", `/api/admin/shipping/orders/${number}/ndr`, {
          as: admin,
          body: { action: "return", comments: "Customer refused" },
        }),
      ),
    );
    expect(choices.map((choice) => choice.status).sort()).toEqual([200, 409, 409, 409]);
    expect(fake.byAwb(awb).ndrActions.length).toBe(1);
    expect(fake.byAwb(awb).ndrActions.at(-1)).toMatchObject({ action: "return" });
    const early = await callApi(shop.app, "POST", `/api/admin/shipping/orders/${number}/received-back`, {
      as: admin,
    });
    expect(early.status).toBe(409);
    // Nor by the plain status change, which would issue the credit note with the goods still out.
    const plainReturn = await callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, {
      as: admin,
      body: { status: "returned_to_origin" },
    });
    expect(plainReturn.status).toBe(409);
    const stock = await stockOf(shop.db, SLUG);
    fake.scan(awb, "RTO INITIATED");
    await webhook(fake.webhookBody(awb));
    // The courier's RTO scan returns the order to origin by itself, costs taken from the parcel's charges.
    expect(await orderStatus(number)).toBe("returned_to_origin");
    const [rto] = await shop.db
      .select()
      .from(orderRto)
      .where(eq(orderRto.orderId, await orderIdOf(number)));
    expect(rto).toMatchObject({ source: "tracking", receivedAt: null });
    // The forward charge and the return's, as serviceability quoted them for the courier booked.
    const [parcel] = await shipmentOf(number);
    expect(rto?.forwardPaise).toBe(parcel?.chargesPaise);
    expect(rto?.returnPaise).toBe(parcel?.rtoChargesPaise);
    expect(rto?.returnPaise).toBeGreaterThan(0);
    expect(await stockOf(shop.db, SLUG)).toBe(stock);
    // Only started: everyone reads "Coming back to us", not "Returned".
    expect(await parcelBackAsShown(number)).toEqual([false, false, false, false]);
    fake.scan(awb, "RTO DELIVERED");
    await webhook(fake.webhookBody(awb));
    expect((await shipmentOf(number))[0]?.status).toBe("rto_delivered");
    expect(await parcelBackAsShown(number)).toEqual([true, true, true, true]);
    const received = await callApi(shop.app, "POST", `/api/admin/shipping/orders/${number}/received-back`, {
      as: admin,
    });
    expect(received.status).toBe(200);
    expect(await orderStatus(number)).toBe("returned_to_origin");
    expect(await stockOf(shop.db, SLUG)).toBe((stock ?? 0) + 1);
    // A second click is answered as done, and restocks nothing.
    const again = await callApi(shop.app, "POST", `/api/admin/shipping/orders/${number}/received-back`, {
      as: admin,
    });
    expect(again.status).toBe(200);
    expect(await stockOf(shop.db, SLUG)).toBe((stock ?? 0) + 1);
  });
});

describe("the fake follows Shiprocket's documentation, not the shop", () => {
  it("refuses a field an endpoint does not document, and a city over 30 characters", async () => {
    const number = await readyOrder();
    const awb = await booked(number);
    fake.scan(awb, "UNDELIVERED");
    const refused = await shiprocketCall("POST", `/ndr/${awb}/action`, {
      action: "re-attempt",
      comments: "again",
      address1: "a new address",
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      "address1",
    );
    fake.undocumented.splice(fake.undocumented.indexOf(`POST /ndr/action address1`), 1);
    const created = fake.shipments.find((entry) => entry.channelOrderId === number)?.created ?? {};
    const city = await shiprocketCall("POST", "/orders/create/adhoc", {
      ...created,
      order_id: `${number}-city`,
      billing_city: "A".repeat(31),
    });
    expect(city.status).toBe(422);
  });

  it("heard from the shop, in every test above, only fields Shiprocket documents", () => {
    expect(fake.undocumented).toEqual([]);
  });
});

describe("a booking never surprises (docs/decisions/086)", () => {
  const weights = (body?: unknown) =>
    callApi(shop.app, body === undefined ? "GET" : "PUT", "/api/admin/shipping/weights", { as: admin, body });
  const noDefault = { weightGrams: null, lengthCm: null, breadthCm: null, heightCm: null };
  const couriers = (number: string, query = "") =>
    callApi(shop.app, "GET", `/api/admin/shipping/orders/${number}/couriers${query}`, { as: admin });

  it("packs an item with no weight as the shop's default parcel, once one is set on the Weights page", async () => {
    const number = await readyOrder();
    await shop.db.update(products).set({ weightGrams: null, heightCm: null }).where(eq(products.slug, SLUG));
    try {
      const refused = await couriers(number);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        error: {
          code: "weight_missing",
          message: expect.stringContaining(
            "on the Weights page (/admin/shipping/weights), or a default parcel",
          ),
        },
      });

      const page = await weights();
      expect(page.status).toBe(200);
      const listed = (page.body as { items: { id: string; weightGrams: number | null }[] }).items;
      // What a booking would stop at comes first.
      expect(listed[0]).toMatchObject({ weightGrams: null });
      expect(listed.some((item) => item.id === SLUG)).toBe(true);

      const saved = await weights({
        defaultItem: { weightGrams: 250, lengthCm: 15, breadthCm: 10, heightCm: 8 },
        items: [],
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        defaultItem: { weightGrams: 250, lengthCm: 15, breadthCm: 10, heightCm: 8 },
      });
      const priced = await couriers(number);
      expect(priced.status).toBe(200);
      // One jar of the default 250 g and the box's 150 g; its own 6 × 6 cm stand, the default's height fills in.
      expect(priced.body).toMatchObject({
        parcel: { weightGrams: 400, lengthCm: 10, breadthCm: 10, heightCm: 8 },
        byDefault: ["Coconut Oil"],
      });
      expect((await book(number, { rule: "cheapest" })).status).toBe(201);
      const [booked] = fake.shipments.filter((each) => each.created.order_id === `${number}`);
      expect(booked?.weightKg).toBe(0.4);
    } finally {
      await shop.db.update(products).set({ weightGrams: 220, heightCm: 16 }).where(eq(products.slug, SLUG));
      await weights({ defaultItem: noDefault, items: [] });
    }
  });

  it("books at the weight staff weighed the parcel at, priced at it first", async () => {
    const number = await readyOrder();
    const priced = await couriers(number, "?weighedGrams=1800");
    expect(priced.status).toBe(200);
    expect(priced.body).toMatchObject({ parcel: { weightGrams: 1800 }, byDefault: [] });
    expect((await couriers(number, "?weighedGrams=0")).status).toBe(400);
    expect((await couriers(number, "?weighedGrams=heavy")).status).toBe(400);
    const response = await book(number, { rule: "cheapest", weighedGrams: 1800 });
    expect(response.status).toBe(201);
    expect((response.body as { shipment: { weightGrams: number } }).shipment.weightGrams).toBe(1800);
    const [booked] = fake.shipments.filter((each) => each.created.order_id === `${number}`);
    expect(booked?.weightKg).toBe(1.8);
  });

  it("saves the whole page at once or not at all, strictly, for staff only", async () => {
    const before = (await weights()).body as { items: { id: string; weightGrams: number | null }[] };
    const unknown = await weights({
      defaultItem: { weightGrams: 300, lengthCm: null, breadthCm: null, heightCm: null },
      items: [
        { kind: "product", id: SLUG, weightGrams: 999, lengthCm: 6, breadthCm: 6, heightCm: 16 },
        {
          kind: "product",
          id: "no-such-oil",
          weightGrams: 100,
          lengthCm: null,
          breadthCm: null,
          heightCm: null,
        },
      ],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: { code: "not_found", message: "There is no product no-such-oil: nothing was saved." },
    });
    expect(await weights()).toMatchObject({ body: before });

    const zero = await weights({ defaultItem: { ...noDefault, weightGrams: 0 }, items: [] });
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({
      error: {
        code: "invalid_request",
        fields: { "defaultItem.weightGrams": "Weight must be more than 0." },
      },
    });
    expect((await weights({ defaultItem: noDefault })).status).toBe(400);

    const shopper = await callApi(shop.app, "GET", "/api/admin/shipping/weights", { as: meera });
    expect(shopper.status).toBe(403);
  });
});
