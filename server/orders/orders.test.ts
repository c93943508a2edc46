import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CheckoutSummary, OrderDetail, OrderPage } from "../../common/orders.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { waitForMail } from "../../tests/mail.ts";
import {
  asUser,
  placeOrderRequest,
  putInCart,
  setStock,
  signUpWithAddress,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import {
  cartItems,
  carts,
  combos,
  discountCodes,
  discountUses,
  orderEvents,
  orderLines,
  orders,
  users,
} from "../db/schema.ts";
import { changeOrderStatus } from "./order-status.ts";

const shop = setUpTestApp();
let accountCount = 0;

const customer = () => signUpWithAddress(shop.app, `shopper${++accountCount}@example.in`);

async function placeCod(who: { cookie: string; addressId: string }, key: string = randomUUID()) {
  const response = await placeOrderRequest(
    shop.app,
    who.cookie,
    { addressId: who.addressId, paymentMethod: "cod" },
    key,
  );
  return {
    response,
    body: (await response.json()) as {
      order: OrderDetail;
      error?: { code: string; message: string; fields?: Record<string, string> };
    },
  };
}

describe("the checkout summary", () => {
  it("prices the cart on the server: today's prices, the cart's code, shipping, and says so for guests with 401", async () => {
    expect((await shop.app.request("/api/checkout")).status).toBe(401);
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "bath-powder" }], "GLOW20");
    const response = await shop.app.request("/api/checkout", asUser(meera.cookie));
    expect(response.status).toBe(200);
    const summary = (await response.json()) as CheckoutSummary;
    expect(summary.pricing).toMatchObject({
      subtotalPaise: 59_900,
      discount: { code: "GLOW20", amountPaise: 12_000 },
      shippingPaise: 4_900,
      totalPaise: 52_800,
    });
    expect(summary.addresses).toEqual([expect.objectContaining({ ...TEST_ADDRESS, phone: "9876543210" })]);
    expect(summary.payment).toEqual({
      cod: { enabled: true, maxOrderPaise: 500_000, available: true },
      razorpay: { enabled: false, offer: null },
    });
    expect(summary.images["bath-powder"]).toBe("/images/catalogue/bath-powder-1-400.webp");
    expect(summary.estimate.from < summary.estimate.to).toBe(true);
  });
});

describe("placing a cash-on-delivery order", () => {
  it("takes the stock, spends the code, empties the cart and e-mails the customer, in one go", async () => {
    const meera = await customer();
    await putInCart(
      shop.db,
      meera.userId,
      [
        { itemId: "hair-growth-oil", quantity: 2 },
        { itemId: "skincare-combo", kind: "combo" },
      ],
      "GLOW20",
    );
    const oilBefore = await stockOf(shop.db, "hair-growth-oil");

    const { response, body } = await placeCod(meera);
    expect(response.status).toBe(201);
    const order = body.order;
    expect(order.number).toMatch(/^PN-\d{4}-\d{6}$/);
    expect(order).toMatchObject({
      status: "placed",
      paymentMethod: "cod",
      subtotalPaise: 2 * 47_500 + 119_900,
      discount: { code: "GLOW20", amountPaise: 43_000 },
      shippingPaise: 0,
      actions: { cancel: { allowed: true, reason: null }, requestReturn: { allowed: false }, pay: false },
    });
    expect(order.totalPaise).toBe(order.subtotalPaise - (order.discount?.amountPaise ?? 0));
    expect(order.lines.map((line) => [line.itemId, line.quantity, line.lineTotalPaise])).toEqual([
      ["hair-growth-oil", 2, 95_000],
      ["skincare-combo", 1, 119_900],
    ]);
    expect(order.events).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: "placed", actor: "customer" }),
    ]);
    expect(order.address).toMatchObject({ name: "Meera Iyer", phone: "9876543210", pin: "560038" });

    expect(await stockOf(shop.db, "hair-growth-oil")).toBe((oilBefore ?? 0) - 2);
    expect(await shop.db.select().from(cartItems).where(eq(cartItems.userId, meera.userId))).toEqual([]);
    const [cart] = await shop.db.select().from(carts).where(eq(carts.userId, meera.userId));
    expect(cart?.discountCode).toBeNull();
    const [use] = await shop.db
      .select()
      .from(discountUses)
      .where(and(eq(discountUses.userId, meera.userId), eq(discountUses.code, "GLOW20")));
    const [stored] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
    expect(use?.orderId).toBe(stored?.id);

    // Sent by the job worker after the order is committed.
    const mail = await waitForMail(shop.dataDir, { to: meera.email, subject: /^Order / });
    expect(mail.subject).toBe(`Order ${order.number} placed`);
    expect(mail?.text).toContain("keep ₹");
    expect(mail?.html).toContain("keep ₹");
  });

  it("lists the order on My Orders, newest first, and shows it on its own page", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil", quantity: 2 }]);
    const first = (await placeCod(meera)).body.order;
    await putInCart(shop.db, meera.userId, [{ itemId: "moringa-powder" }]);
    const second = (await placeCod(meera)).body.order;
    expect(second.shippingPaise).toBe(4_900);

    const list = (await (await shop.app.request("/api/orders", asUser(meera.cookie))).json()) as OrderPage;
    expect(list.orders.map((order) => order.number)).toEqual([second.number, first.number]);
    expect(list.total).toEqual({ count: 2, exact: true });
    expect(list).toMatchObject({ next: null, previous: null });
    const page = await shop.app.request(`/api/orders/${first.number}`, asUser(meera.cookie));
    expect(((await page.json()) as { order: OrderDetail }).order.totalPaise).toBe(70_000);
  });

  it("refuses an empty cart, an unknown address and a guest", async () => {
    const meera = await customer();
    const empty = await placeCod(meera);
    expect(empty.response.status).toBe(409);
    expect(empty.body.error?.code).toBe("cart_empty");

    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const other = await customer();
    const wrongAddress = await placeCod({ cookie: meera.cookie, addressId: other.addressId });
    expect(wrongAddress.response.status).toBe(400);

    const guest = await shop.app.request(
      "/api/orders",
      jsonRequest({
        method: "POST",
        headers: { "Idempotency-Key": randomUUID() },
        body: { addressId: meera.addressId, paymentMethod: "cod" },
      }),
    );
    expect(guest.status).toBe(401);
  });
});

describe("idempotency", () => {
  it("returns the same order for the same key, and refuses the key with another body", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "badam-mix" }]);
    const key = randomUUID();
    const first = await placeCod(meera, key);
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get("Idempotent-Replayed")).toBe("false");

    const again = await placeCod(meera, key);
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.order.number).toBe(first.body.order.number);

    const different = await placeOrderRequest(
      shop.app,
      meera.cookie,
      { addressId: meera.addressId, paymentMethod: "razorpay" },
      key,
    );
    expect(different.status).toBe(422);
    expect((await different.json()).error.code).toBe("idempotency_key_reused");
    expect(await shop.db.select().from(orders).where(eq(orders.userId, meera.userId))).toHaveLength(1);
  });

  it("keeps keys per account: another shopper's key is theirs alone", async () => {
    const [asha, ravi] = [await customer(), await customer()];
    const key = randomUUID();
    await putInCart(shop.db, asha.userId, [{ itemId: "coconut-oil" }]);
    await putInCart(shop.db, ravi.userId, [{ itemId: "coconut-oil" }]);
    const a = await placeCod(asha, key);
    const r = await placeCod(ravi, key);
    expect([a.response.status, r.response.status]).toEqual([201, 201]);
    expect(a.body.order.number).not.toBe(r.body.order.number);
  });

  it("requires a well-formed Idempotency-Key", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const missing = await shop.app.request(
      "/api/orders",
      asUser(meera.cookie, { method: "POST", body: { addressId: meera.addressId, paymentMethod: "cod" } }),
    );
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe("idempotency_key_required");
    const short = await placeCod(meera, "abc");
    expect(short.response.status).toBe(400);
  });
});

describe("tampering", () => {
  it.each([
    [{ totalPaise: 100 }, "totalPaise"],
    [{ pricePaise: 1 }, "pricePaise"],
    [{ discountPaise: 50_000 }, "discountPaise"],
    [{ lines: [{ itemId: "coconut-oil", unitPricePaise: 1 }] }, "lines"],
  ])("refuses a body with %o (400)", async (extra, field) => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const response = await placeOrderRequest(shop.app, meera.cookie, {
      addressId: meera.addressId,
      paymentMethod: "cod",
      ...extra,
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.fields[field]).toBe("is not accepted here");
    expect(await shop.db.select().from(orders).where(eq(orders.userId, meera.userId))).toEqual([]);
  });
});

describe("someone else's order", () => {
  it("is not found (404), never forbidden, for reading, cancelling or paying", async () => {
    const [owner, stranger] = [await customer(), await customer()];
    await putInCart(shop.db, owner.userId, [{ itemId: "coconut-oil" }]);
    const { order } = (await placeCod(owner)).body;
    for (const [method, suffix, body] of [
      ["GET", "", undefined],
      ["POST", "/cancel", {}],
      ["POST", "/return", { reason: "It arrived broken, the jar leaked" }],
      ["POST", "/payment", undefined],
    ] as const) {
      const response = await shop.app.request(
        `/api/orders/${order.number}${suffix}`,
        asUser(stranger.cookie, { method, body }),
      );
      expect(response.status, `${method} ${suffix}`).toBe(404);
    }
    const missing = await shop.app.request("/api/orders/PN-2026-999999", asUser(stranger.cookie));
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toBe(
      (await (await shop.app.request(`/api/orders/${order.number}`, asUser(stranger.cookie))).json()).error
        .message,
    );
  });
});

describe("stock and codes at order time", () => {
  it("answers 409 naming the item that ran out, and takes nothing", async () => {
    const meera = await customer();
    await setStock(shop.db, "face-wash-powder", 1);
    await putInCart(shop.db, meera.userId, [
      { itemId: "coconut-oil" },
      { itemId: "face-wash-powder", quantity: 2 },
    ]);
    const coconutBefore = await stockOf(shop.db, "coconut-oil");
    const { response, body } = await placeCod(meera);
    expect(response.status).toBe(409);
    expect(body.error).toMatchObject({
      code: "insufficient_stock",
      message: "Only 1 of Face Wash Powder is left. Please lower the quantity in your cart.",
    });
    expect(await stockOf(shop.db, "coconut-oil")).toBe(coconutBefore);
    expect(await shop.db.select().from(cartItems).where(eq(cartItems.userId, meera.userId))).toHaveLength(2);
  });

  it("refuses a code switched off after it was applied, and a use already spent", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "hair-conditioning-pack" }], "SAVE15");
    await shop.db.update(discountCodes).set({ active: false }).where(eq(discountCodes.code, "SAVE15"));
    const off = await placeCod(meera);
    await shop.db.update(discountCodes).set({ active: true }).where(eq(discountCodes.code, "SAVE15"));
    expect(off.response.status).toBe(409);
    expect(off.body.error).toMatchObject({ code: "discount_unavailable" });
    expect(off.body.error?.message).toContain("Invalid discount code");

    const ravi = await customer();
    await putInCart(shop.db, ravi.userId, [{ itemId: "coconut-oil" }], "GLOW20");
    expect((await placeCod(ravi)).response.status).toBe(201);
    // The same code put back into the cart (as a stale device might) cannot be spent twice.
    await putInCart(shop.db, ravi.userId, [{ itemId: "coconut-oil" }], "GLOW20");
    const twice = await placeCod(ravi);
    expect(twice.response.status).toBe(409);
    expect(twice.body.error?.message).toContain("This discount code has already been used");
  });

  it("offers cash on delivery only up to the configured order value", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "body-combo", kind: "combo", quantity: 4 }]);
    const summary = (await (
      await shop.app.request("/api/checkout", asUser(meera.cookie))
    ).json()) as CheckoutSummary;
    expect(summary.pricing.totalPaise).toBe(559_600);
    expect(summary.payment.cod.available).toBe(false);
    const { response, body } = await placeCod(meera);
    expect(response.status).toBe(422);
    expect(body.error?.code).toBe("cod_unavailable");
  });
});

describe("races on real PostgreSQL", () => {
  it("sells the last jar once: stock 1, 30 accounts ordering at the same moment", async () => {
    await setStock(shop.db, "beetroot-face-pack", 1);
    const shoppers = await Promise.all(Array.from({ length: 30 }, () => customer()));
    for (const shopper of shoppers)
      await putInCart(shop.db, shopper.userId, [{ itemId: "beetroot-face-pack" }]);

    const results = await Promise.all(shoppers.map((shopper) => placeCod(shopper)));
    const statuses = results.map((result) => result.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(29);
    for (const refused of results.filter((result) => result.response.status === 409)) {
      expect(refused.body.error?.message).toBe(
        "Beetroot Face Pack is out of stock. Please remove it from your cart.",
      );
    }
    expect(await stockOf(shop.db, "beetroot-face-pack")).toBe(0);
    const sold = await shop.db.select().from(orderLines).where(eq(orderLines.itemId, "beetroot-face-pack"));
    expect(sold).toHaveLength(1);
  }, 60_000); // thirty sign-ups first, each hashing a password: slow on a busy machine

  it("takes a cart's lines together: the combo runs out, and the product in the same orders is not taken", async () => {
    await setStock(shop.db, "face-wash-powder", 50);
    await shop.db.update(combos).set({ stock: 3 }).where(eq(combos.id, "skincare-combo"));
    const shoppers = await Promise.all(Array.from({ length: 10 }, () => customer()));
    for (const shopper of shoppers) {
      await putInCart(shop.db, shopper.userId, [
        { itemId: "face-wash-powder" },
        { itemId: "skincare-combo", kind: "combo" },
      ]);
    }

    const results = await Promise.all(shoppers.map((shopper) => placeCod(shopper)));
    const statuses = results.map((result) => result.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    const refused = results.filter((result) => result.response.status === 409);
    expect(refused).toHaveLength(7);
    for (const { body } of refused) {
      expect(body.error?.code).toBe("out_of_stock");
      // Told by the stock update, or from memory once the combo's last unit was heard of: the same words.
      expect(body.error?.fields).toEqual({
        "skincare-combo": "Glow Skincare Combo is out of stock. Please remove it from your cart.",
      });
    }
    expect(await stockOf(shop.db, "face-wash-powder")).toBe(47);
    const [combo] = await shop.db
      .select({ stock: combos.stock })
      .from(combos)
      .where(eq(combos.id, "skincare-combo"));
    expect(combo?.stock).toBe(0);
    // Every connection the refused orders used is back in the pool and usable.
    const next = await customer();
    await putInCart(shop.db, next.userId, [{ itemId: "face-wash-powder" }]);
    expect((await placeCod(next)).response.status).toBe(201);
    expect(await stockOf(shop.db, "face-wash-powder")).toBe(46);
  }, 60_000);

  it("makes one order of one key sent 20 times at once", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "curry-leaves-powder", quantity: 3 }]);
    const before = await stockOf(shop.db, "curry-leaves-powder");
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => placeCod(meera, key)));
    const statuses = results.map((result) => result.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(new Set(results.map((result) => result.body.order.number)).size).toBe(1);
    expect(await shop.db.select().from(orders).where(eq(orders.userId, meera.userId))).toHaveLength(1);
    expect(await stockOf(shop.db, "curry-leaves-powder")).toBe((before ?? 0) - 3);
  });

  it("makes one order from two tabs with different keys: the second finds the cart empty", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "sathu-maavu" }]);
    const results = await Promise.all([placeCod(meera), placeCod(meera), placeCod(meera)]);
    expect(results.map((result) => result.response.status).sort((a, b) => a - b)).toEqual([201, 409, 409]);
    expect(
      results.filter((result) => result.response.status === 409).map((result) => result.body.error?.code),
    ).toEqual(["cart_empty", "cart_empty"]);
  });
});

describe("cancelling while others order the same items", () => {
  it("never deadlocks: stock is locked in one order by everyone", async () => {
    const items = [
      // A combo whose id sorts before the products: locking by id alone would take it first.
      { itemId: "body-combo", kind: "combo" as const },
      { itemId: "coconut-oil" },
      { itemId: "haircare-combo", kind: "combo" as const },
      { itemId: "wax-powder" },
    ];
    const cancelling = await Promise.all(Array.from({ length: 4 }, () => customer()));
    const ordering = await Promise.all(Array.from({ length: 4 }, () => customer()));
    for (let round = 0; round < 4; round++) {
      const placed: string[] = [];
      for (const shopper of cancelling) {
        await putInCart(shop.db, shopper.userId, items);
        placed.push((await placeCod(shopper)).body.order.number);
      }
      for (const shopper of ordering) await putInCart(shop.db, shopper.userId, [...items].reverse());
      const results = await Promise.all([
        ...cancelling.map((shopper, index) =>
          shop.app.request(
            `/api/orders/${placed[index]}/cancel`,
            asUser(shopper.cookie, { method: "POST", body: {} }),
          ),
        ),
        ...ordering.map(async (shopper) => (await placeCod(shopper)).response),
      ]);
      expect(results.map((response) => response.status)).toEqual([200, 200, 200, 200, 201, 201, 201, 201]);
    }
  });
});

describe("cancelling and returning", () => {
  it("lets the customer cancel before shipping, puts the stock back and e-mails", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "wax-powder", quantity: 2 }]);
    const before = await stockOf(shop.db, "wax-powder");
    const { order } = (await placeCod(meera)).body;
    expect(await stockOf(shop.db, "wax-powder")).toBe((before ?? 0) - 2);

    const response = await shop.app.request(
      `/api/orders/${order.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: { reason: "Ordered twice by mistake" } }),
    );
    expect(response.status).toBe(200);
    const cancelled = ((await response.json()) as { order: OrderDetail }).order;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.events.at(-1)).toMatchObject({
      fromStatus: "placed",
      toStatus: "cancelled",
      actor: "customer",
      note: "Reason: Ordered twice by mistake",
    });
    expect(await stockOf(shop.db, "wax-powder")).toBe(before);
    await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${order.number} cancelled$`),
    });

    const again = await shop.app.request(
      `/api/orders/${order.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: {} }),
    );
    expect(again.status).toBe(409);
    expect(await stockOf(shop.db, "wax-powder")).toBe(before);
  });

  it("refuses to cancel once shipped, or a perishable order, or after 6 days", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const { order } = (await placeCod(meera)).body;
    for (const to of ["confirmed", "packed"] as const) {
      await changeOrderStatus(shop.deps, { number: order.number }, { to, actor: "admin", actorUserId: null });
    }
    await changeOrderStatus(
      shop.deps,
      { number: order.number },
      { to: "shipped", actor: "admin", actorUserId: null, courier: "Delhivery", trackingNumber: "DL123" },
    );
    const shipped = await shop.app.request(
      `/api/orders/${order.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: {} }),
    );
    expect(shipped.status).toBe(409);
    expect((await shipped.json()).error.message).toBe("An order that is shipped cannot be cancelled.");

    await putInCart(shop.db, meera.userId, [{ itemId: "moringa-powder" }]);
    const perishable = (await placeCod(meera)).body.order;
    expect(perishable.actions.cancel).toEqual({
      allowed: false,
      reason:
        "Orders with perishable food items cannot be cancelled online. Please contact us if there is a quality issue.",
    });
    const refused = await shop.app.request(
      `/api/orders/${perishable.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: {} }),
    );
    expect(refused.status).toBe(409);

    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const old = (await placeCod(meera)).body.order;
    await shop.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 6 * 24 * 3_600_000 - 60_000) })
      .where(eq(orders.number, old.number));
    const late = await shop.app.request(
      `/api/orders/${old.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: {} }),
    );
    expect(late.status).toBe(409);
    expect((await late.json()).error.message).toBe(
      "Orders can be cancelled within 6 days of ordering. Please contact us.",
    );
  });

  it("takes a return request within 6 days of delivery, with a reason", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const { order } = (await placeCod(meera)).body;
    const early = await shop.app.request(
      `/api/orders/${order.number}/return`,
      asUser(meera.cookie, { method: "POST", body: { reason: "The bottle arrived cracked" } }),
    );
    expect(early.status).toBe(409);
    for (const to of ["confirmed", "packed"] as const) {
      await changeOrderStatus(shop.deps, { number: order.number }, { to, actor: "admin", actorUserId: null });
    }
    await changeOrderStatus(
      shop.deps,
      { number: order.number },
      { to: "shipped", actor: "admin", actorUserId: null, courier: "India Post", trackingNumber: "EM123IN" },
    );
    await changeOrderStatus(
      shop.deps,
      { number: order.number },
      { to: "delivered", actor: "admin", actorUserId: null },
    );

    const vague = await shop.app.request(
      `/api/orders/${order.number}/return`,
      asUser(meera.cookie, { method: "POST", body: { reason: "bad" } }),
    );
    expect(vague.status).toBe(400);
    const response = await shop.app.request(
      `/api/orders/${order.number}/return`,
      asUser(meera.cookie, { method: "POST", body: { reason: "The bottle arrived cracked" } }),
    );
    expect(response.status).toBe(200);
    const requested = ((await response.json()) as { order: OrderDetail }).order;
    expect(requested.status).toBe("return_requested");
    expect(requested.events.map((event) => event.toStatus)).toEqual([
      "placed",
      "confirmed",
      "packed",
      "shipped",
      "delivered",
      "return_requested",
    ]);
    const shipped = await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${order.number} has shipped$`),
    });
    expect(shipped.text).toContain("EM123IN");
    await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${order.number} delivered$`),
    });
  });
});

describe("account deletion", () => {
  it("keeps the order and its delivery record, without the account", async () => {
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
    const { order } = (await placeCod(meera)).body;
    await shop.db.delete(users).where(eq(users.id, meera.userId));
    const [kept] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
    expect(kept).toMatchObject({ userId: null, shipName: "Meera Iyer", shipPin: "560038", status: "placed" });
    const events = await shop.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, kept?.id ?? ""));
    expect(events).toEqual([expect.objectContaining({ actor: "customer", actorUserId: null })]);
  });
});
