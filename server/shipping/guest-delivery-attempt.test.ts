import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryRequest, ShipmentView } from "../../common/shipping.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../../tests/fake-shiprocket.ts";
import { linkIn, waitForMail } from "../../tests/mail.ts";
import { placeGuestOrderRequest } from "../../tests/orders.ts";
import { orderEvents, orders, products, shipments } from "../db/schema.ts";

/**
 * A guest answers a failed delivery through the link in the "could not deliver" mail, as an account does on
 * its order page (docs/decisions/082): the same checks, the same path to Shiprocket, and plain words back
 * whatever Shiprocket says; the owner sees what was asked on the order and on the Shipping desk.
 */
let fake: FakeShiprocket;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let owner: TestAccount;
let guests = 0;

// Few misses allowed per client, so the test reaches the limit (the limit is the guest link's, decision 050).
const LINK_MISSES = 4;

type Answer = { shipment: ShipmentView; message: string };
type Guest = { number: string; token: string; email: string; awb: string };

const webhook = (awb: string) =>
  shop.app.request("/api/shipping/tracking-updates", {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-api-key": fake.webhookToken },
    body: JSON.stringify(fake.webhookBody(awb)),
  });

/** India's tomorrow, as the form offers it. */
const tomorrow = () => new Date(Date.now() + 330 * 60_000 + 86_400_000).toISOString().slice(0, 10);

const attempt = (guest: Pick<Guest, "number" | "token">, body: unknown, client = "192.0.2.10") =>
  callApi(
    shop.app,
    "POST",
    `/api/guest-orders/${guest.number}/delivery-attempt?token=${encodeURIComponent(guest.token)}`,
    { body, headers: { "X-Forwarded-For": client } },
  );

/** A guest's cash-on-delivery order, confirmed, packed, booked, picked up and not delivered. */
async function guestWithFailedDelivery(): Promise<Guest> {
  guests += 1;
  const email = `ndr-guest${guests}@example.in`;
  const placed = await placeGuestOrderRequest(shop.app, {
    email,
    phone: `9${String(810_000_000 + guests).padStart(9, "0")}`,
    items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
  });
  expect(placed.status).toBe(201);
  const { order, token } = (await placed.json()) as { order: { number: string }; token: string };
  for (const status of ["confirmed", "packed"]) {
    const moved = await callApi(shop.app, "POST", `/api/admin/orders/${order.number}/status`, {
      as: owner,
      body: { status },
    });
    expect(moved.status).toBe(200);
  }
  const booked = await callApi(shop.app, "POST", `/api/admin/shipping/orders/${order.number}/book`, {
    as: owner,
    body: { rule: "cheapest" },
  });
  expect(booked.status).toBe(201);
  const awb = (booked.body as { shipment: { awb: string } }).shipment.awb;
  fake.scan(awb, "PICKED UP");
  fake.scan(awb, "UNDELIVERED");
  expect((await webhook(awb)).status).toBe(200);
  return { number: order.number, token, email, awb };
}

const parcelOf = async (number: string) =>
  (
    await shop.db
      .select({ shipment: shipments })
      .from(shipments)
      .innerJoin(orders, eq(orders.id, shipments.orderId))
      .where(eq(orders.number, number))
  )[0]?.shipment;

beforeAll(async () => {
  fake = await startFakeShiprocket();
  shop = await createTestApp({ ...fake.env, GUEST_ORDER_LINK_MISSES_PER_CLIENT: String(LINK_MISSES) });
  await shop.db
    .update(products)
    .set({ weightGrams: 220, lengthCm: 6, breadthCm: 6, heightCm: 16 })
    .where(eq(products.slug, "coconut-oil"));
  owner = await signUpWithRole(shop, "owner.guest-ndr@prakriti.example", "owner");
});
afterAll(async () => {
  await shop.close();
  await fake.stop();
});

describe("a guest answers a failed delivery from the mailed link", () => {
  it("the mail's link opens the parcel; a day and a corrected address and mobile reach Shiprocket", async () => {
    const guest = await guestWithFailedDelivery();
    const mail = await waitForMail(shop.dataDir, {
      to: guest.email,
      subject: new RegExp(`${guest.number}: the courier could not deliver`),
    });
    const link = new URL(linkIn(mail, `/guest-order/${guest.number}`));
    expect(link.searchParams.get("token")).toBe(guest.token);

    const seen = await callApi(
      shop.app,
      "GET",
      `/api/guest-orders/${guest.number}/shipment?token=${guest.token}`,
    );
    expect(seen.status).toBe(200);
    const parcel = (seen.body as { shipment: ShipmentView }).shipment;
    expect(parcel).toMatchObject({ status: "undelivered", ndr: { state: "open" }, request: null });
    // What the shop paid is not the shopper's to see.
    expect(parcel).toMatchObject({ chargesPaise: null, rtoChargesPaise: null, weightGrams: null });

    const day = tomorrow();
    const answered = await attempt(guest, {
      date: day,
      line1: "14, Lotus Apartments, 3rd Cross, Flat 2A",
      line2: "Behind the temple",
      phone: "98450 12345",
    });
    expect(answered.status).toBe(200);
    const { shipment, message } = answered.body as Answer;
    expect(message).toMatch(/^Thank you\. The courier has your request: another attempt on \w{3}, \d+ \w{3}/);
    expect(message).toContain("at 14, Lotus Apartments, 3rd Cross, Flat 2A, Behind the temple");
    expect(message).toContain("calling 98450 12345");
    expect(shipment.request).toMatchObject({
      day,
      line1: "14, Lotus Apartments, 3rd Cross, Flat 2A",
      line2: "Behind the temple",
      phone: "9845012345",
      outcome: "sent",
      courierSaid: null,
    } satisfies Partial<DeliveryRequest>);

    // Through the same path as an account's answer: the address update first, then the re-attempt.
    const entry = fake.byAwb(guest.awb);
    expect(entry.addressUpdates).toEqual([
      expect.objectContaining({
        shipping_address: "14, Lotus Apartments, 3rd Cross, Flat 2A",
        shipping_address_2: "Behind the temple",
        shipping_phone: "9845012345",
      }),
    ]);
    expect(entry.ndrActions).toEqual([{ action: "re-attempt", comments: expect.stringContaining(day) }]);
    const [order] = await shop.db.select().from(orders).where(eq(orders.number, guest.number));
    expect(order).toMatchObject({
      shipLine1: "14, Lotus Apartments, 3rd Cross, Flat 2A",
      shipPhone: "9845012345",
    });
    const history = await shop.db
      .select({ kind: orderEvents.kind, actor: orderEvents.actor, note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order?.id ?? ""), eq(orderEvents.actor, "customer")));
    expect(history.map((event) => event.kind).filter((kind) => kind !== "status")).toEqual([
      "address",
      "delivery_attempt",
    ]);

    // Asked again: refused in plain words, and Shiprocket hears nothing more.
    const again = await attempt(guest, { date: day });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: {
        code: "delivery_already_asked",
        message:
          "You have already told us when to deliver again. To change it, contact us with the order number.",
      },
    });
    expect(fake.byAwb(guest.awb).ndrActions.length).toBe(1);

    // The owner sees what the guest asked, on the order and on the Shipping desk.
    const staffView = await callApi(shop.app, "GET", `/api/admin/shipping/orders/${guest.number}`, {
      as: owner,
    });
    expect((staffView.body as { shipment: ShipmentView }).shipment.request).toMatchObject({
      day,
      phone: "9845012345",
      outcome: "sent",
    });
    const desk = await callApi(shop.app, "GET", "/api/admin/shipping/undelivered", { as: owner });
    const listed = (
      desk.body as { parcels: { number: string; request: DeliveryRequest | null }[] }
    ).parcels.find((each) => each.number === guest.number);
    expect(listed?.request).toMatchObject({ day, line1: "14, Lotus Apartments, 3rd Cross, Flat 2A" });

    // The parcel goes out again and fails again: the guest is asked afresh.
    fake.scan(guest.awb, "OUT FOR DELIVERY", new Date(Date.now() + 1000));
    await webhook(guest.awb);
    fake.scan(guest.awb, "UNDELIVERED", new Date(Date.now() + 2000));
    await webhook(guest.awb);
    expect(await parcelOf(guest.number)).toMatchObject({ ndrState: "open", requestedAt: null });
    const second = await attempt(guest, { date: day });
    expect(second.status).toBe(200);
    expect((second.body as Answer).message).toMatch(/^Thank you\. The courier has your request/);
  });

  it("refused by Shiprocket: the guest reads plain words, and the owner sees the request to pass on by hand", async () => {
    const guest = await guestWithFailedDelivery();
    // The courier moved the parcel on before the shop heard (Shiprocket refuses an action on it then).
    fake.scan(guest.awb, "RTO INITIATED");
    const day = tomorrow();
    const answered = await attempt(guest, { date: day, phone: "+919845067890" });
    expect(answered.status).toBe(202);
    const { shipment, message } = answered.body as Answer;
    expect(message).toMatch(
      /^Thank you, we have your request: another attempt on \w{3}, \d+ \w{3}, calling 98450 67890\. The courier did not confirm it to us online, so we are passing it on to them ourselves\.$/,
    );
    expect(message).not.toMatch(/Shiprocket|refused|404|422|AWB/i);
    // The shopper never sees Shiprocket's words.
    expect(shipment.request).toMatchObject({
      day,
      phone: "9845067890",
      outcome: "refused",
      courierSaid: null,
    });
    expect(shipment.ndr?.state).toBe("reattempt_requested");
    expect(fake.byAwb(guest.awb).ndrActions).toEqual([]);

    // Opened again, the page says the same, and does not offer the form again.
    const reread = await callApi(
      shop.app,
      "GET",
      `/api/guest-orders/${guest.number}/shipment?token=${guest.token}`,
    );
    expect((reread.body as { shipment: ShipmentView }).shipment.request).toMatchObject({
      outcome: "refused",
      courierSaid: null,
    });

    // The owner sees it with Shiprocket's own words, on the order and on the desk, and it counts as work.
    const staffView = await callApi(shop.app, "GET", `/api/admin/shipping/orders/${guest.number}`, {
      as: owner,
    });
    expect((staffView.body as { shipment: ShipmentView }).shipment.request).toMatchObject({
      day,
      phone: "9845067890",
      outcome: "refused",
      courierSaid: "Action cannot be taken on this AWB",
    });
    const desk = await callApi(shop.app, "GET", "/api/admin/shipping/undelivered", { as: owner });
    expect(
      (desk.body as { parcels: { number: string; request: DeliveryRequest | null }[] }).parcels.find(
        (each) => each.number === guest.number,
      )?.request,
    ).toMatchObject({ outcome: "refused", courierSaid: "Action cannot be taken on this AWB" });
    const [order] = await shop.db.select().from(orders).where(eq(orders.number, guest.number));
    const said = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order?.id ?? ""), eq(orderEvents.kind, "delivery_attempt")));
    // The order's history, which the shopper reads too, says what was asked, not what Shiprocket said.
    expect(said.map((event) => event.note)).toEqual([
      expect.stringMatching(
        /^Another attempt asked by the shopper for \w{3}, \d+ \w{3}, on the corrected mobile: Customer corrected the mobile$/,
      ),
    ]);
    const guestView = await callApi(
      shop.app,
      "GET",
      `/api/guest-orders/${guest.number}?token=${guest.token}`,
    );
    expect(JSON.stringify(guestView.body)).not.toMatch(/refused|Action cannot|did not take/i);
    // Shiprocket took the new mobile (its address update) before refusing the re-attempt: the order follows.
    expect(fake.byAwb(guest.awb).addressUpdates.at(-1)).toMatchObject({ shipping_phone: "9845067890" });
    expect(order?.shipPhone).toBe("9845067890");

    // The owner's own choice, refused, is said as what to do, not as Shiprocket's bare answer.
    const ownerTry = await callApi(shop.app, "POST", `/api/admin/shipping/orders/${guest.number}/ndr`, {
      as: owner,
      body: { action: "reattempt", date: day },
    });
    expect(ownerTry.status).toBe(422);
    expect(ownerTry.body.error.code).toBe("courier_refused");
    expect(ownerTry.body.error.message).toMatch(
      /^Shiprocket did not take this choice \(Action cannot be taken on this AWB\)\. Ask .+ by phone, giving AWB \w+, or try again later\.$/,
    );
  });

  it("opens only with the order's own link: a wrong token is refused in the error shape and counted", async () => {
    const guest = await guestWithFailedDelivery();
    const other = await guestWithFailedDelivery();
    const wrong = `${guest.token.slice(0, -1)}${guest.token.endsWith("A") ? "B" : "A"}`;
    const client = "192.0.2.66";
    const tries = [
      await attempt({ number: guest.number, token: wrong }, { date: tomorrow() }, client),
      await attempt({ number: guest.number, token: other.token }, { date: tomorrow() }, client),
      await callApi(shop.app, "GET", `/api/guest-orders/${guest.number}/shipment?token=${wrong}`, {
        headers: { "X-Forwarded-For": client },
      }),
    ];
    for (const refused of tries) {
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({
        error: { code: "order_link_not_found", message: expect.stringContaining("does not open an order") },
      });
    }
    // Past the client's misses, a 429 with Retry-After, and still nothing asked of Shiprocket.
    const statuses: number[] = [];
    for (let n = 0; n < 3; n++) {
      const response = await shop.app.request(
        `/api/guest-orders/${guest.number}/delivery-attempt?token=${wrong}`,
        jsonRequest({ method: "POST", body: { date: tomorrow() }, headers: { "X-Forwarded-For": client } }),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 429, 429]);
    expect(fake.byAwb(guest.awb).ndrActions).toEqual([]);
    expect((await parcelOf(guest.number))?.ndrState).toBe("open");
    // Something that is not a link's token at all is bad input.
    const notAToken = await attempt({ number: guest.number, token: "short" }, { date: tomorrow() });
    expect(notAToken.status).toBe(400);
    expect(notAToken.body.error.code).toBe("invalid_request");
    // The right link from another client still works.
    expect((await attempt(guest, { date: tomorrow() }, "192.0.2.67")).status).toBe(200);
  });

  it("refuses bad input in the error shape, naming the field, and asks nothing of Shiprocket", async () => {
    const guest = await guestWithFailedDelivery();
    const far = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const cases: [unknown, string][] = [
      [{}, "date"],
      [{ date: "tomorrow" }, "date"],
      [{ date: far }, "date"],
      [{ date: tomorrow(), phone: "12345" }, "phone"],
      [{ date: tomorrow(), line1: "12" }, "line1"],
      [{ date: tomorrow(), line2: "Near the temple" }, "line1"],
      [{ date: tomorrow(), line1: "12, Lotus\nApartments" }, "line1"],
      [{ date: tomorrow(), price: 0 }, "price"],
    ];
    for (const [body, field] of cases) {
      const refused = await attempt(guest, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: "invalid_request",
        fields: { [field]: expect.any(String) },
      });
      expect(Object.keys(refused.body)).toEqual(["error"]);
    }
    expect(fake.byAwb(guest.awb).ndrActions).toEqual([]);

    // A parcel that is not waiting for an answer (delivered) is a conflict, said plainly.
    const delivered = await guestWithFailedDelivery();
    fake.scan(delivered.awb, "DELIVERED", new Date(Date.now() + 1000));
    await webhook(delivered.awb);
    const late = await attempt(delivered, { date: tomorrow() });
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({
      code: "no_failed_delivery",
      message: "There is no failed delivery waiting for a choice on this parcel.",
    });
  });
});
