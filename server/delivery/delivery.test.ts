import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateDelivery, formatEstimateDate } from "../../common/delivery-estimate.ts";
import type { CheckoutSummary } from "../../common/orders.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import {
  placeOrderRequest,
  putInCart,
  saveAddress,
  signUpWithAddress,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { addresses, auditLog, codPlaceRules, deliveryRules, orders } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let customer: TestAccount;
let accounts = 0;
beforeAll(async () => {
  owner = await signUpWithRole(shop, "delivery-owner@example.in", "owner");
  customer = await signUpViaApp(shop.app, "delivery-customer@example.in");
});

const api = apiCaller(shop);

const CHENNAI = { ...TEST_ADDRESS, city: "Chennai", state: "Tamil Nadu", pin: "600020", line2: "Adyar" };

/** A shopper with face-glow-oil in the cart and a saved Chennai address. */
async function shopperInChennai() {
  const account = await signUpWithAddress(shop.app, `delivery-shopper-${++accounts}@example.in`, CHENNAI);
  await putInCart(shop.db, account.userId, [{ itemId: "face-glow-oil" }]);
  return { account, addressId: account.addressId };
}

const byDate = () => formatEstimateDate(estimateDelivery(new Date()).to);

async function setRule(prefix: string, rule: "not_served" | "served") {
  const { status } = await api("PUT", `/admin/delivery-rules/${prefix}`, { rule }, owner);
  expect([200, 201]).toContain(status);
}
/** Cash on delivery off for a PIN or prefix: one of the owner's COD rules, since decision 043's kind moved there. */
async function setNoCod(prefix: string) {
  const body = { kind: "pin", value: prefix, maxPaise: null };
  const { status } = await api("PUT", "/admin/cod-rules/places", body, owner);
  expect([200, 201]).toContain(status);
}
const clearRules = async () => {
  await shop.db.delete(deliveryRules);
  await shop.db.delete(codPlaceRules);
};
/** "Check delivery" reads the COD rules from memory, forgotten on the NOTIFY of a change's commit. */
const codAt = async (pin: string) => (await api("GET", `/delivery/check?pin=${pin}`)).body.cod.available;

describe("GET /api/pincodes/:pin", () => {
  it("answers city, district and state from India Post's directory, cacheable", async () => {
    const response = await shop.app.request("/api/pincodes/600020");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=86400");
    expect(await response.json()).toEqual({
      pin: "600020",
      city: "Chennai",
      district: "Chennai",
      state: "Tamil Nadu",
      states: ["Tamil Nadu"],
    });
    // The directory's old spellings and Ladakh, listed there under Jammu & Kashmir, in today's names.
    expect((await api("GET", "/pincodes/194101")).body).toMatchObject({ district: "Leh", state: "Ladakh" });
    expect((await api("GET", "/pincodes/605001")).body).toMatchObject({ state: "Puducherry" });
    expect((await api("GET", "/pincodes/560038")).body).toMatchObject({ state: "Karnataka" });
    // Delhi's districts are not cities: 110001 is New Delhi (Connaught Place), 110085 (Rohini) Delhi (issue 30).
    expect((await api("GET", "/pincodes/110001")).body).toMatchObject({
      city: "New Delhi",
      district: "Central Delhi",
      state: "Delhi",
    });
    expect((await api("GET", "/pincodes/110085")).body).toMatchObject({ city: "Delhi", state: "Delhi" });
  });

  it("refuses a PIN that is not 6 digits, or that India Post does not list, with 400 naming pin", async () => {
    for (const bad of ["12345", "0600020", "06000a", "060002"]) {
      const { status, body } = await api("GET", `/pincodes/${bad}`);
      expect(status, bad).toBe(400);
      expect(body.error.fields.pin, bad).toBe("Enter the 6-digit PIN code");
    }
    const unknown = await api("GET", "/pincodes/600999");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({
      code: "unknown_pin",
      message: "pin: We could not find this PIN code. Please check it.",
      fields: { pin: "We could not find this PIN code. Please check it." },
    });
  });
});

describe("saving an address", () => {
  it("refuses a PIN India Post does not list, or one in another state, and writes nothing", async () => {
    const account = await signUpViaApp(shop.app, `delivery-address-${++accounts}@example.in`);
    const unknown = await api("POST", "/addresses", { ...CHENNAI, pin: "600999" }, account);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({ pin: "We could not find this PIN code. Please check it." });
    // 605001 is in Tamil Nadu's range of PINs, but India Post lists it in Puducherry.
    const wrongState = await api(
      "POST",
      "/addresses",
      { ...CHENNAI, pin: "605001", state: "Tamil Nadu" },
      account,
    );
    expect(wrongState.status).toBe(400);
    expect(wrongState.body.error.fields.pin).toBe("This PIN code is in Puducherry, not Tamil Nadu");
    expect(await shop.db.select().from(addresses).where(eq(addresses.userId, account.userId))).toEqual([]);
  });

  it("keeps the district, from the directory when the form sent none", async () => {
    const account = await signUpViaApp(shop.app, `delivery-address-${++accounts}@example.in`);
    const saved = await api("POST", "/addresses", CHENNAI, account);
    expect(saved.status).toBe(201);
    expect(saved.body.address).toMatchObject({ city: "Chennai", district: "Chennai", pin: "600020" });
  });
});

describe("GET /api/delivery/check", () => {
  it("answers where, by when and whether cash is taken, by the checkout's rules", async () => {
    await clearRules();
    const { status, body } = await api("GET", "/delivery/check?pin=600020&product=face-glow-oil");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      pin: "600020",
      served: true,
      place: { city: "Chennai", district: "Chennai", state: "Tamil Nadu" },
      estimate: estimateDelivery(new Date()),
      cod: { available: true, reason: null },
    });
    expect(body.message).toBe(`Delivers to Chennai, Tamil Nadu by ${byDate()}; cash on delivery available`);
    const combo = await api("GET", "/delivery/check?pin=110001&combo=skincare-combo");
    expect(combo.status).toBe(200);
    expect(combo.body.message).toBe(
      `Delivers to New Delhi, Delhi by ${byDate()}; cash on delivery available`,
    );
  });

  it("at checkout, holds the order's total against the cash-on-delivery limit", async () => {
    await clearRules();
    const within = await api("GET", "/delivery/check?pin=600020&orderPaise=500000");
    expect(within.body).toMatchObject({ served: true, cod: { available: true } });
    expect(within.body.message).toBe(
      `Delivers to Chennai, Tamil Nadu by ${byDate()}; cash on delivery available`,
    );
    const over = await api("GET", "/delivery/check?pin=600020&orderPaise=500100");
    expect(over.body).toMatchObject({
      served: true,
      cod: { available: false, reason: "Cash on delivery is available for orders up to ₹5,000." },
    });
    expect(over.body.message).toBe(
      `Delivers to Chennai, Tamil Nadu by ${byDate()}; cash on delivery not available above ₹5,000`,
    );
  });

  it("refuses bad input with 400 naming the field", async () => {
    const cases: [string, string][] = [
      ["/delivery/check?pin=600020&orderPaise=12.5", "orderPaise"],
      ["/delivery/check?pin=600020&orderPaise=-1", "orderPaise"],
      ["/delivery/check?pin=600020&orderPaise=lots", "orderPaise"],
      ["/delivery/check?pin=600020&orderPaise=100&product=face-glow-oil", "combo"],
      ["/delivery/check?pin=1234", "pin"],
      ["/delivery/check?pin=600999", "pin"],
      ["/delivery/check", "pin"],
      ["/delivery/check?pin=600020&product=no-such-thing", "product"],
      ["/delivery/check?pin=600020&size=xl", "size"],
    ];
    for (const [path, field] of cases) {
      const { status, body } = await api("GET", path);
      expect(status, path).toBe(400);
      expect(Object.keys(body.error.fields), path).toContain(field);
    }
  });

  it("obeys the owner's rules, the longest prefix deciding", async () => {
    await clearRules();
    await setRule("60", "not_served");
    const notServed = await api("GET", "/delivery/check?pin=600020&product=face-glow-oil");
    expect(notServed.body).toMatchObject({ served: false, estimate: null, cod: { available: false } });
    expect(notServed.body.message).toBe(
      "Sorry, we do not deliver to PIN code 600020 (Chennai, Tamil Nadu) yet.",
    );

    await setRule("600020", "served");
    await setNoCod("6000");
    await expect.poll(() => codAt("600020")).toBe(false);
    const noCod = await api("GET", "/delivery/check?pin=600020&product=face-glow-oil");
    expect(noCod.body).toMatchObject({
      served: true,
      cod: { available: false, reason: "Cash on delivery is not available for PIN code 600020." },
    });
    expect(noCod.body.message).toBe(
      `Delivers to Chennai, Tamil Nadu by ${byDate()}; cash on delivery not available for this PIN code`,
    );

    // Its neighbour is still not served, under 60.
    expect((await api("GET", "/delivery/check?pin=600017")).body.served).toBe(false);
    await clearRules();
    await expect.poll(() => codAt("600020")).toBe(true);
  });
});

describe("checkout and placing an order obey the rules", () => {
  it("a PIN that is not served: checkout says so and the order is refused, nothing written", async () => {
    await clearRules();
    const { account, addressId } = await shopperInChennai();
    await setRule("600", "not_served");
    const checkout = await api("GET", "/checkout", undefined, account);
    const summary = checkout.body as CheckoutSummary;
    expect(summary.delivery[addressId]).toEqual({
      served: false,
      problem: "Sorry, we do not deliver to PIN code 600020 (Chennai, Tamil Nadu) yet.",
      codProblem: null,
    });
    const stock = await stockOf(shop.db, "face-glow-oil");
    const response = await placeOrderRequest(shop.app, account.cookie, { addressId, paymentMethod: "cod" });
    expect(response.status).toBe(422);
    const { error } = await response.json();
    expect(error.code).toBe("not_served");
    expect(error.fields.addressId).toMatch(/do not deliver to PIN code 600020/);
    expect(await shop.db.select().from(orders).where(eq(orders.userId, account.userId))).toEqual([]);
    expect(await stockOf(shop.db, "face-glow-oil")).toBe(stock);
    await clearRules();
  });

  it("a PIN without cash on delivery: checkout hides it with the reason and a COD order is refused", async () => {
    await clearRules();
    const { account, addressId } = await shopperInChennai();
    await setNoCod("600020");
    await expect.poll(() => codAt("600020")).toBe(false);
    const summary = (await api("GET", "/checkout", undefined, account)).body as CheckoutSummary;
    expect(summary.delivery[addressId]).toEqual({
      served: true,
      problem: null,
      codProblem: "Cash on delivery is not available for PIN code 600020.",
    });
    const refused = await placeOrderRequest(shop.app, account.cookie, { addressId, paymentMethod: "cod" });
    expect(refused.status).toBe(422);
    expect((await refused.json()).error).toEqual({
      code: "cod_unavailable",
      message: "Cash on delivery is not available for PIN code 600020.",
    });
    expect(await shop.db.select().from(orders).where(eq(orders.userId, account.userId))).toEqual([]);

    // Another address, outside the rule, takes cash as before.
    const bengaluru = await saveAddress(shop.app, account.cookie, TEST_ADDRESS);
    const placed = await placeOrderRequest(shop.app, account.cookie, {
      addressId: bengaluru,
      paymentMethod: "cod",
    });
    expect(placed.status).toBe(201);
    await clearRules();
    await expect.poll(() => codAt("600020")).toBe(true);
  });

  it("an address saved with a PIN the directory does not list is refused at ordering, naming addressId", async () => {
    const { account } = await shopperInChennai();
    const addressId = randomUUID();
    await shop.db
      .insert(addresses)
      .values({ id: addressId, userId: account.userId, ...CHENNAI, pin: "600999" });
    const summary = (await api("GET", "/checkout", undefined, account)).body as CheckoutSummary;
    expect(summary.delivery[addressId]?.served).toBe(false);
    const response = await placeOrderRequest(shop.app, account.cookie, { addressId, paymentMethod: "cod" });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("unknown_pin");
    expect(error.fields).toEqual({ addressId: "We could not find this PIN code. Please check it." });
  });
});

describe("/api/admin/delivery-rules", () => {
  it("answers 401 signed out and 403 to a customer on every route, and writes nothing", async () => {
    await clearRules();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/admin/delivery-rules"],
      ["PUT", "/admin/delivery-rules/600", { rule: "not_served" }],
      ["DELETE", "/admin/delivery-rules/600"],
    ];
    for (const [method, path, body] of attempts) {
      expect((await api(method, path, body)).status, `${method} ${path}`).toBe(401);
      const forbidden = await api(method, path, body, customer);
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.error.code).toBe("forbidden");
    }
    const staff = await signUpWithRole(shop, "delivery-staff@example.in", "staff");
    expect((await api("PUT", "/admin/delivery-rules/600", { rule: "served" }, staff)).status).toBe(403);
    expect(await shop.db.select().from(deliveryRules)).toEqual([]);
  });

  it("sets, changes, lists and removes rules, each with its audit entry", async () => {
    await clearRules();
    const created = await api(
      "PUT",
      "/admin/delivery-rules/7440",
      { rule: "not_served", note: "Islands" },
      owner,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ prefix: "7440", rule: "not_served", note: "Islands" });
    const changed = await api("PUT", "/admin/delivery-rules/7440", { rule: "served" }, owner);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ rule: "served", note: "" });
    await api("PUT", "/admin/delivery-rules/194101", { rule: "not_served" }, owner);
    const list = await api("GET", "/admin/delivery-rules?limit=1", undefined, owner);
    expect(list.body.items.map((rule: { prefix: string }) => rule.prefix)).toEqual(["194101"]);
    const next = await api("GET", `/admin/delivery-rules?limit=1&after=${list.body.next}`, undefined, owner);
    expect(next.body).toMatchObject({ items: [{ prefix: "7440", rule: "served" }], next: null });

    const remove = () =>
      shop.app.request(
        "/api/admin/delivery-rules/7440",
        jsonRequest({ method: "DELETE", cookie: owner.cookie }),
      );
    expect((await remove()).status).toBe(204);
    expect((await remove()).status).toBe(404);
    const entries = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "delivery_rule"), eq(auditLog.entityId, "7440")))
      .orderBy(auditLog.createdAt);
    expect(entries.map((entry) => [entry.action, entry.actorEmail, entry.before, entry.after])).toEqual([
      ["create", owner.email, null, { rule: "not_served", note: "Islands" }],
      ["update", owner.email, { rule: "not_served", note: "Islands" }, { rule: "served", note: "" }],
      ["delete", owner.email, { rule: "served", note: "" }, null],
    ]);
    await clearRules();
  });

  it("refuses a bad prefix, rule or field with 400 naming it, and writes nothing", async () => {
    await clearRules();
    const cases: [string, unknown, string][] = [
      ["/admin/delivery-rules/0600", { rule: "not_served" }, "prefix"],
      ["/admin/delivery-rules/6000201", { rule: "not_served" }, "prefix"],
      ["/admin/delivery-rules/60a", { rule: "not_served" }, "prefix"],
      ["/admin/delivery-rules/600", { rule: "closed" }, "rule"],
      // Cash on delivery by PIN is a COD rule now (/api/admin/cod-rules/places).
      ["/admin/delivery-rules/600", { rule: "no_cod" }, "rule"],
      ["/admin/delivery-rules/600", { rule: "served", price: 1 }, "price"],
      ["/admin/delivery-rules/600", { rule: "served", note: "x".repeat(201) }, "note"],
    ];
    for (const [path, body, field] of cases) {
      const { status, body: answer } = await api("PUT", path, body, owner);
      expect(status, path).toBe(400);
      expect(Object.keys(answer.error.fields), path).toContain(field);
    }
    expect(await shop.db.select().from(deliveryRules)).toEqual([]);
  });
});
