import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminCodRules } from "../../common/cod-rules.ts";
import type { CheckoutSummary, OrderDetail } from "../../common/orders.ts";
import type { RtoStats } from "../../common/rto.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, stockOf } from "../../tests/orders.ts";
import { auditLog, cartItems, orderEvents, orderRto, orders } from "../db/schema.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let owner: TestAccount;
let staff: TestAccount;
let meera: TestAccount & { addressId: string };
let ravi: TestAccount & { addressId: string };

const SLUG = "coconut-oil";
const NO_COD_HERE = "Cash on delivery is not available for PIN code 560038.";

const api = (method: string, path: string, as: TestAccount | null, body?: unknown) =>
  callApi(shop.app, method, `/api${path}`, { as: as ?? undefined, body });
/** DELETE answers 204 with no body on success. */
const remove = async (path: string, as: TestAccount) =>
  (await shop.app.request(`/api${path}`, jsonRequest({ method: "DELETE", cookie: as.cookie }))).status;

async function placeCod(buyer: TestAccount & { addressId: string }) {
  // A refused order leaves its cart as it was: start from one jar each time.
  await shop.db.delete(cartItems).where(eq(cartItems.userId, buyer.userId));
  await putInCart(shop.db, buyer.userId, [{ itemId: SLUG }]);
  const response = await placeOrderRequest(shop.app, buyer.cookie, {
    addressId: buyer.addressId,
    paymentMethod: "cod",
  });
  return {
    status: response.status,
    body: (await response.json()) as { order: OrderDetail; error: { code: string; message: string } },
  };
}

async function shippedCod(buyer: TestAccount & { addressId: string }) {
  const placed = await placeCod(buyer);
  expect(placed.status).toBe(201);
  const { number } = placed.body.order;
  for (const body of [
    { status: "confirmed" },
    { status: "packed" },
    { status: "shipped", courier: "Delhivery", trackingNumber: `TRK${number.slice(-6)}` },
  ]) {
    expect((await api("POST", `/admin/orders/${number}/status`, staff, body)).status).toBe(200);
  }
  return number;
}

const statusOf = async (number: string) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]?.status;

/** A guest's checkout with the address used: cash on delivery decided for it, as Place order will. */
const guestCodProblem = async (address?: object) => {
  const body = { items: [{ id: SLUG, kind: "product", quantity: 1 }], ...(address ? { address } : {}) };
  const { status, body: summary } = await api("POST", "/checkout/guest", null, body);
  expect(status).toBe(200);
  const { guestDelivery } = summary as CheckoutSummary;
  return guestDelivery === null ? null : guestDelivery.codProblem;
};
const NEW_GUEST = {
  name: "Asha Rao",
  phone: "90000 12345",
  line1: "7, Lake Road",
  city: "Bengaluru",
  state: "Karnataka",
  pin: "560038",
};

const checkoutCodProblem = async (buyer: TestAccount & { addressId: string }) => {
  const { body } = await api("GET", "/checkout", buyer);
  return (body as CheckoutSummary).delivery[buyer.addressId]?.codProblem;
};

beforeAll(async () => {
  shop = await createTestApp();
  owner = await signUpWithRole(shop, "owner@prakriti.example", "owner");
  staff = await signUpWithRole(shop, "staff@prakriti.example", "staff");
  const a = await signUpViaApp(shop.app, "meera@example.in");
  meera = { ...a, addressId: await saveAddress(shop.app, a.cookie) };
  const b = await signUpViaApp(shop.app, "ravi@example.in");
  ravi = {
    ...b,
    addressId: await saveAddress(shop.app, b.cookie, {
      name: "Ravi Kumar",
      phone: "91234 56780",
      line1: "4, Gandhi Road",
      line2: "",
      city: "Chennai",
      state: "Tamil Nadu",
      pin: "600020",
    }),
  };
});
afterAll(() => shop.close());

describe("the owner's COD rules", () => {
  it("are read by staff and changed by the owner only", async () => {
    expect((await api("GET", "/admin/cod-rules", null)).status).toBe(401);
    expect((await api("GET", "/admin/cod-rules", meera)).status).toBe(403);
    const read = await api("GET", "/admin/cod-rules", staff);
    expect(read.status).toBe(200);
    // Never saved: the environment's first values.
    expect((read.body as AdminCodRules).settings).toMatchObject({
      enabled: shop.env.COD_ENABLED,
      maxOrderPaise: shop.env.COD_MAX_ORDER_PAISE,
      updatedAt: null,
    });
    const settings = {
      enabled: true,
      maxOrderPaise: 400_000,
      firstOrderMaxPaise: null,
      prepaidOnlyAfterRtos: null,
    };
    const place = { kind: "pin", value: "560038", maxPaise: null };
    expect((await api("PUT", "/admin/cod-rules/settings", staff, settings)).status).toBe(403);
    expect((await api("PUT", "/admin/cod-rules/places", staff, place)).status).toBe(403);
    expect(await remove("/admin/cod-rules/places?kind=pin&value=560038", staff)).toBe(403);
    expect((await api("PUT", "/admin/cod-rules/settings", meera, settings)).status).toBe(403);
  });

  it("refuses a place with a NUL in it as a bad request, not a database error", async () => {
    // PostgreSQL refuses a NUL in text: the delete's key is checked like the rule it names.
    expect(await remove("/admin/cod-rules/places?kind=state&value=Bi%00har", owner)).toBe(400);
  });

  it.each([
    [
      { enabled: true, maxOrderPaise: 1, firstOrderMaxPaise: null, prepaidOnlyAfterRtos: null, price: 1 },
      "price",
    ],
    [
      { enabled: true, maxOrderPaise: -1, firstOrderMaxPaise: null, prepaidOnlyAfterRtos: null },
      "maxOrderPaise",
    ],
    [
      { enabled: true, maxOrderPaise: 1.5, firstOrderMaxPaise: null, prepaidOnlyAfterRtos: null },
      "maxOrderPaise",
    ],
    [
      { enabled: true, maxOrderPaise: 1, firstOrderMaxPaise: null, prepaidOnlyAfterRtos: 0 },
      "prepaidOnlyAfterRtos",
    ],
    [{ enabled: "yes", maxOrderPaise: 1, firstOrderMaxPaise: null, prepaidOnlyAfterRtos: null }, "enabled"],
  ])("refuse settings %j naming %s", async (body, field) => {
    const { status, body: answer } = await api("PUT", "/admin/cod-rules/settings", owner, body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe("invalid_request");
    expect(answer.error.message).toContain(field);
  });

  it.each([
    [{ kind: "pin", value: "0560", maxPaise: null }, "value"],
    [{ kind: "state", value: "Atlantis", maxPaise: null }, "value"],
    [{ kind: "city", value: "Patna", maxPaise: null }, "kind"],
    [{ kind: "district", value: "Patna", maxPaise: null, role: "owner" }, "role"],
  ])("refuse the place rule %j naming %s", async (body, field) => {
    const { status, body: answer } = await api("PUT", "/admin/cod-rules/places", owner, body);
    expect(status).toBe(400);
    expect(answer.error.message).toContain(field);
  });

  it("refuse cash at checkout for a PIN the owner chose, with the reason, on every read at once", async () => {
    expect(await checkoutCodProblem(meera)).toBeNull();
    const check = async () =>
      (await api("GET", "/delivery/check?pin=560038&orderPaise=50000", null)).body.cod;
    expect(await check()).toEqual({ available: true, reason: null });

    const added = await api("PUT", "/admin/cod-rules/places", owner, {
      kind: "pin",
      value: "560038",
      maxPaise: null,
      note: "Too many refusals",
    });
    expect(added.status).toBe(201);
    // Remembered with the catalogue, forgotten by the NOTIFY of the change's commit.
    await expect.poll(check).toEqual({ available: false, reason: NO_COD_HERE });
    expect(await checkoutCodProblem(meera)).toBe(NO_COD_HERE);
    const refused = await placeCod(meera);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual({ code: "cod_unavailable", message: NO_COD_HERE });
    // Another PIN is not touched.
    expect(await checkoutCodProblem(ravi)).toBeNull();

    const audit = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "cod_rule"), eq(auditLog.entityId, "pin:560038")));
    expect(audit).toMatchObject([{ action: "create", actorEmail: owner.email }]);

    expect(await remove("/admin/cod-rules/places?kind=pin&value=560038", owner)).toBe(204);
    expect(await remove("/admin/cod-rules/places?kind=pin&value=560038", owner)).toBe(404);
    await expect.poll(check).toEqual({ available: true, reason: null });
  });

  it("cap a state, and a first order, by the order's total", async () => {
    const capped = await api("PUT", "/admin/cod-rules/places", owner, {
      kind: "state",
      value: "Karnataka",
      maxPaise: 100,
    });
    expect(capped.status).toBe(201);
    // Checkout reads the rules from memory, forgotten when the NOTIFY of the change's commit arrives.
    await expect
      .poll(() => checkoutCodProblem(meera))
      .toBe("Cash on delivery for Karnataka is available for orders up to ₹1.");
    expect(await remove("/admin/cod-rules/places?kind=state&value=karnataka", owner)).toBe(204);
    await expect.poll(() => checkoutCodProblem(meera)).toBeNull();

    const saved = await api("PUT", "/admin/cod-rules/settings", owner, {
      enabled: true,
      maxOrderPaise: 500_000,
      firstOrderMaxPaise: 100,
      prepaidOnlyAfterRtos: null,
    });
    expect(saved.status).toBe(200);
    await expect
      .poll(() => checkoutCodProblem(meera))
      .toMatch(/^Cash on delivery is available for a first order up to ₹1\./);
    const refused = await placeCod(meera);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/first order/);
    // A guest learns it before Place order once the address (and its mobile) is used; without it, nothing is said.
    expect(await guestCodProblem()).toBeNull();
    expect(await guestCodProblem(NEW_GUEST)).toMatch(
      /^Cash on delivery is available for a first order up to ₹1\./,
    );
    await api("PUT", "/admin/cod-rules/settings", owner, {
      enabled: true,
      maxOrderPaise: 500_000,
      firstOrderMaxPaise: null,
      prepaidOnlyAfterRtos: null,
    });
    const [entry] = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "cod_rule"), eq(auditLog.entityId, "settings")));
    expect(entry?.after).toMatchObject({ firstOrderMaxPaise: 100 });
  });
});

describe("returns to origin", () => {
  let number: string;

  it("is recorded by hand with what it cost, not by the plain status change", async () => {
    number = await shippedCod(meera);
    const plain = await api("POST", `/admin/orders/${number}/status`, staff, {
      status: "returned_to_origin",
    });
    expect(plain.status).toBe(409);
    expect(
      (await api("POST", `/admin/rto/orders/${number}`, meera, { forwardPaise: 1, returnPaise: 1 })).status,
    ).toBe(403);
    const bad = await api("POST", `/admin/rto/orders/${number}`, staff, { forwardPaise: -5, returnPaise: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("forwardPaise");
    const early = await api("POST", `/admin/rto/orders/${number}/received`, staff);
    expect(early.status).toBe(409);

    const recorded = await api("POST", `/admin/rto/orders/${number}`, staff, {
      forwardPaise: 6_500,
      returnPaise: 7_000,
      note: "Refused at the door",
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body.rto).toMatchObject({
      source: "manual",
      forwardPaise: 6_500,
      returnPaise: 7_000,
      receivedAt: null,
    });
    expect(await statusOf(number)).toBe("returned_to_origin");
    const again = await api("POST", `/admin/rto/orders/${number}`, staff, {
      forwardPaise: 1,
      returnPaise: 1,
    });
    expect(again.status).toBe(409);
    const detail = await api("GET", `/admin/orders/${number}`, staff);
    expect(detail.body.order.events.at(-1)).toMatchObject({ toStatus: "returned_to_origin" });
  });

  it("puts the stock back once, however many staff click Received at once", async () => {
    const before = (await stockOf(shop.db, SLUG)) ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api("POST", `/admin/rto/orders/${number}/received`, staff)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.body.alreadyReceived === false)).toHaveLength(1);
    expect(await stockOf(shop.db, SLUG)).toBe(before + 1);
    const [row] = await shop.db
      .select({ receivedAt: orderRto.receivedAt })
      .from(orderRto)
      .innerJoin(orders, eq(orders.id, orderRto.orderId))
      .where(eq(orders.number, number));
    expect(row?.receivedAt).not.toBeNull();
    const events = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.number, number));
    expect(events.filter((event) => event.note?.includes("stock restored"))).toHaveLength(1);
    // Nothing was paid in cash, so there is nothing to refund.
    const refund = await api("POST", `/admin/orders/${number}/status`, staff, {
      status: "refunded",
      refundMethod: "upi",
      refundReference: "UPI1",
    });
    expect(refund.status).toBe(409);
  });

  it("shows the RTO rate by PIN, district, state and customer, with what it cost", async () => {
    await shippedCod(ravi);
    const by = async (group: string) => {
      const { status, body } = await api("GET", `/admin/rto/stats?by=${group}`, staff);
      expect(status).toBe(200);
      return body as RtoStats;
    };
    const pins = await by("pin");
    expect(pins.total).toEqual({ shipped: 2, returned: 1, ratePerMille: 500, costPaise: 13_500 });
    expect(pins.cod).toEqual(pins.total);
    expect(pins.prepaid).toEqual({ shipped: 0, returned: 0, ratePerMille: 0, costPaise: 0 });
    expect(pins.rows).toEqual([
      {
        key: "560038",
        label: "560038 Bengaluru",
        shipped: 1,
        returned: 1,
        ratePerMille: 1000,
        costPaise: 13_500,
      },
    ]);
    expect(pins.groups).toBe(1);
    expect((await by("state")).rows.map((row) => row.key)).toEqual(["Karnataka"]);
    expect((await by("district")).rows).toHaveLength(1);
    expect((await by("customer")).rows).toMatchObject([
      { key: `account:${meera.userId}`, label: "Meera Iyer · 9876543210" },
    ]);
    // A period before anything shipped counts nothing.
    const empty = await api("GET", "/admin/rto/stats?from=2020-01-01&to=2020-01-31", staff);
    expect(empty.body.total.shipped).toBe(0);
    expect((await api("GET", "/admin/rto/stats?by=city", staff)).status).toBe(400);
    // A day the calendar does not have is a bad request, not a failed query.
    expect((await api("GET", "/admin/rto/stats?from=2026-13-45", staff)).status).toBe(400);
    expect((await api("GET", "/admin/rto/stats?from=2026-02-01&to=2026-01-01", staff)).status).toBe(400);
    expect((await api("GET", "/admin/rto/stats", meera)).status).toBe(403);
  });

  it("asks a customer to pay online after the owner's number of returns", async () => {
    await api("PUT", "/admin/cod-rules/settings", owner, {
      enabled: true,
      maxOrderPaise: 500_000,
      firstOrderMaxPaise: null,
      prepaidOnlyAfterRtos: 1,
    });
    await expect.poll(() => checkoutCodProblem(meera)).toMatch(/came back undelivered/);
    const refused = await placeCod(meera);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("cod_unavailable");
    // Ravi's parcel was not returned: cash is still his to choose.
    expect(await checkoutCodProblem(ravi)).toBeNull();
    // A guest with Meera's mobile, at another address, is the same customer to the rule; a new one is not.
    expect(await guestCodProblem({ ...NEW_GUEST, phone: "98765 43210" })).toMatch(/came back undelivered/);
    expect(await guestCodProblem(NEW_GUEST)).toBeNull();
  });
});
