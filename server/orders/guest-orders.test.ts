import { randomUUID } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  CheckoutSummary,
  OrderDetail,
  OrderPage,
} from "../../common/orders.ts";
import { makeAdmin, signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { linkIn, mailsTo, waitForMail } from "../../tests/mail.ts";
import {
  placeOrderRequest,
  putInCart,
  saveAddress,
  setStock,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { combos, discountCodes, guestDiscountUses, guestOrderRequests, orders } from "../db/schema.ts";
import { FIND_ORDER_ANSWER, FIND_ORDER_LIMITS } from "./guest-orders.routes.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let guests = 0;

beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(() => shop.close());

type GuestAnswer = {
  order: OrderDetail;
  token: string;
  email: string;
  inAccount: boolean;
  hasAccount: boolean;
  error?: { code: string; message: string; fields?: Record<string, string> };
};

/** A new guest's details: a fresh e-mail and mobile each, unless given. */
function guest(overrides: { email?: string; phone?: string } = {}) {
  guests += 1;
  return {
    email: overrides.email ?? `guest${guests}@example.in`,
    address: {
      ...TEST_ADDRESS,
      phone: overrides.phone ?? `9${String(800_000_000 + guests).padStart(9, "0")}`,
    },
  };
}

async function placeAsGuest(
  body: Record<string, unknown>,
  key: string = randomUUID(),
): Promise<{ status: number; body: GuestAnswer; replayed: string | null }> {
  const response = await shop.app.request(
    "/api/guest-orders",
    jsonRequest({ method: "POST", body, headers: { "Idempotency-Key": key } }),
  );
  return {
    status: response.status,
    body: (await response.json()) as GuestAnswer,
    replayed: response.headers.get("Idempotent-Replayed"),
  };
}

const openGuestOrder = (number: string, token: string) =>
  callApi(shop.app, "GET", `/api/guest-orders/${number}?token=${encodeURIComponent(token)}`);

const countOrders = async () => (await shop.db.select({ id: orders.id }).from(orders)).length;

describe("a guest order is placed like a signed-in one", () => {
  it("prices, stocks and discounts exactly as a signed-in order of the same cart", async () => {
    const items = [
      { id: "bath-powder", kind: "product", quantity: 2 },
      { id: "haircare-combo", kind: "combo", quantity: 1 },
    ];
    const comboStock = async () =>
      (await shop.db.select({ stock: combos.stock }).from(combos).where(eq(combos.id, "haircare-combo")))[0]
        ?.stock;
    const [bathBefore, comboBefore] = [await stockOf(shop.db, "bath-powder"), await comboStock()];

    const placed = await placeAsGuest({ ...guest(), items, discountCode: "glow20", paymentMethod: "cod" });
    expect(placed.status).toBe(201);

    const member = await signUpViaApp(shop.app, "same-cart@example.in");
    await putInCart(
      shop.db,
      member.userId,
      [
        { itemId: "bath-powder", quantity: 2 },
        { itemId: "haircare-combo", kind: "combo" },
      ],
      "GLOW20",
    );
    const addressId = await saveAddress(shop.app, member.cookie);
    const signedIn = await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "cod" });
    expect(signedIn.status).toBe(201);
    const { order: memberOrder } = (await signedIn.json()) as { order: OrderDetail };

    const pick = (order: OrderDetail) => ({
      subtotalPaise: order.subtotalPaise,
      discount: order.discount,
      shippingPaise: order.shippingPaise,
      totalPaise: order.totalPaise,
      status: order.status,
      lines: order.lines,
    });
    expect(pick(placed.body.order)).toEqual(pick(memberOrder));
    expect(placed.body.order.discount).toMatchObject({ code: "GLOW20" });
    expect(await stockOf(shop.db, "bath-powder")).toBe((bathBefore ?? 0) - 4);
    expect(await comboStock()).toBe((comboBefore ?? 0) - 2);
    const [row] = await shop.db.select().from(orders).where(eq(orders.number, placed.body.order.number));
    expect(row).toMatchObject({ userId: null, shipPhone: expect.stringMatching(/^9\d{9}$/) });
    expect(row?.guestEmail).toMatch(/^guest\d+@example\.in$/);
  });

  it("the checkout summary for a guest's cart is the order's pricing", async () => {
    const { status, body } = await callApi(shop.app, "POST", "/api/checkout/guest", {
      body: { items: [{ id: "bath-powder", kind: "product", quantity: 1 }], discountCode: "GLOW20" },
    });
    expect(status).toBe(200);
    expect((body as CheckoutSummary).pricing).toMatchObject({
      subtotalPaise: 59_900,
      discount: { code: "GLOW20", amountPaise: 12_000 },
      shippingPaise: 4_900,
      totalPaise: 52_800,
    });
    expect((body as CheckoutSummary).addresses).toEqual([]);
  });

  it("refuses what the server decides (a price, a total) and stock that is not there, writing nothing", async () => {
    const before = await countOrders();
    const items = [{ id: "wax-powder", kind: "product", quantity: 1 }];
    const priced = await placeAsGuest({ ...guest(), items, paymentMethod: "cod", totalPaise: 100 });
    expect(priced.status).toBe(400);
    await setStock(shop.db, "wax-powder", 0);
    const short = await placeAsGuest({ ...guest(), items, paymentMethod: "cod" });
    expect(short.status).toBe(409);
    expect(short.body.error?.code).toBe("out_of_stock");
    await setStock(shop.db, "wax-powder", 50);
    expect(await countOrders()).toBe(before);
    // A refused order leaves no key behind, so the guest can retry once the cart is fixed.
    expect(await shop.db.select().from(guestOrderRequests).where(isNull(guestOrderRequests.orderId))).toEqual(
      [],
    );
  });

  it.each([
    ["a mobile that is not Indian", { address: { ...TEST_ADDRESS, phone: "12345 67890" } }, "address.phone"],
    ["a mobile too short", { address: { ...TEST_ADDRESS, phone: "98765" } }, "address.phone"],
    ["an e-mail without a domain", { email: "asha@" }, "email"],
    ["an empty cart", { items: [] }, "items"],
  ])("refuses %s with a 400 naming the field", async (_, change, field) => {
    const before = await countOrders();
    const body = {
      ...guest(),
      items: [{ id: "bath-powder", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
      ...change,
    };
    const placed = await placeAsGuest(body);
    expect(placed.status).toBe(400);
    expect(placed.body.error?.code).toBe("invalid_request");
    expect(Object.keys(placed.body.error?.fields ?? {})).toContain(field);
    expect(await countOrders()).toBe(before);
  });
});

describe("idempotency", () => {
  it("one key sent 10 times at once gives one order; the same key with another body is refused", async () => {
    const key = randomUUID();
    const body = {
      ...guest(),
      items: [{ id: "moringa-powder", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    };
    const before = await stockOf(shop.db, "moringa-powder");
    const answers = await Promise.all(Array.from({ length: 10 }, () => placeAsGuest(body, key)));
    const numbers = new Set(answers.map((answer) => answer.body.order?.number));
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    expect(numbers.size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === "true")).toHaveLength(9);
    expect(await stockOf(shop.db, "moringa-powder")).toBe((before ?? 0) - 1);

    // Someone who learnt the key cannot read the order with a body of their own.
    const other = await placeAsGuest({ ...body, email: "someone-else@example.in" }, key);
    expect(other.status).toBe(422);
    expect(other.body.error?.code).toBe("idempotency_key_reused");
    expect(JSON.stringify(other.body)).not.toContain(answers[0]?.body.order.number ?? "none");
  });
});

describe("a discount code's one use per customer holds for guests", () => {
  const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];

  it("is refused again for the same e-mail with another mobile, and the same mobile with another e-mail", async () => {
    const first = guest();
    expect(
      (await placeAsGuest({ ...first, items, discountCode: "SAVE15", paymentMethod: "cod" })).status,
    ).toBe(201);
    const before = await countOrders();

    const sameEmail = guest({ email: first.email });
    const byEmail = await placeAsGuest({ ...sameEmail, items, discountCode: "SAVE15", paymentMethod: "cod" });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.error?.message).toMatch(/already been used/);

    const sameMobile = guest({ phone: first.address.phone });
    const byMobile = await placeAsGuest({
      ...sameMobile,
      items,
      discountCode: "save15",
      paymentMethod: "cod",
    });
    expect(byMobile.status).toBe(409);
    expect(byMobile.body.error?.message).toMatch(/already been used/);
    expect(await countOrders()).toBe(before);

    // Without the code the same guest orders as usual.
    expect((await placeAsGuest({ ...sameEmail, items, paymentMethod: "cod" })).status).toBe(201);
  });

  it("is refused to a guest using the e-mail of an account that spent it, and to the account after its guest use", async () => {
    const member = await signUpViaApp(shop.app, "spent-it@example.in");
    await putInCart(shop.db, member.userId, [{ itemId: "coconut-oil" }], "WELCOME10");
    const addressId = await saveAddress(shop.app, member.cookie);
    expect(
      (await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "cod" })).status,
    ).toBe(201);
    const asGuest = await placeAsGuest({
      ...guest({ email: "spent-it@example.in" }),
      items,
      discountCode: "WELCOME10",
      paymentMethod: "cod",
    });
    expect(asGuest.status).toBe(409);

    // A guest who then confirms an account with that e-mail has the use in the account too.
    const later = guest({ email: "guest-then-member@example.in" });
    expect(
      (await placeAsGuest({ ...later, items, discountCode: "WELCOME10", paymentMethod: "cod" })).status,
    ).toBe(201);
    const joined = await signUpViaApp(shop.app, later.email);
    const apply = await callApi(shop.app, "POST", "/api/discounts/apply", {
      as: joined,
      body: { code: "WELCOME10" },
    });
    expect(apply.status).toBe(409);
    expect(apply.body.error.message).toBe("This discount code has already been used");
  });

  it("of 8 guests with one mobile ordering at once with the code, exactly one gets it", async () => {
    const phone = "9123456780";
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        placeAsGuest({ ...guest({ phone }), items, discountCode: "GLOW20", paymentMethod: "cod" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
    const uses = await shop.db
      .select()
      .from(guestDiscountUses)
      .where(eq(guestDiscountUses.contact, `mobile:${phone}`));
    expect(uses).toHaveLength(1);
    const [code] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "GLOW20"));
    expect(code?.timesUsed).toBeGreaterThan(0);
  });
});

describe("the guest order's link", () => {
  it("opens its own order only: an altered token or another order's token is refused", async () => {
    const items = [{ id: "bath-powder", kind: "product", quantity: 1 }];
    const a = await placeAsGuest({ ...guest(), items, paymentMethod: "cod" });
    const b = await placeAsGuest({ ...guest(), items, paymentMethod: "cod" });
    const own = await openGuestOrder(a.body.order.number, a.body.token);
    expect(own.status).toBe(200);
    expect(own.body.order.number).toBe(a.body.order.number);
    // The link cancels as the account would (guest-order-actions.test.ts); a return goes through the shop.
    expect(own.body.order.actions).toEqual({
      cancel: { allowed: true, reason: null },
      requestReturn: { allowed: false, reason: null },
      pay: false,
    });

    const swapped = await openGuestOrder(a.body.order.number, b.body.token);
    expect(swapped.status).toBe(403);
    expect(swapped.body.error.code).toBe("invalid_order_link");
    const last = a.body.token.at(-1) === "A" ? "B" : "A";
    const altered = await openGuestOrder(a.body.order.number, `${a.body.token.slice(0, -1)}${last}`);
    expect(altered.status).toBe(403);
    const malformed = await openGuestOrder(a.body.order.number, "not-a-token");
    expect(malformed.status).toBe(400);
    expect((await openGuestOrder("PN-2026-999999", a.body.token)).status).toBe(404);

    // A signed-in customer's order has no guest link at all.
    const member = await signUpViaApp(shop.app, "no-guest-link@example.in");
    await putInCart(shop.db, member.userId, [{ itemId: "bath-powder" }]);
    const addressId = await saveAddress(shop.app, member.cookie);
    const response = await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "cod" });
    const { order } = (await response.json()) as { order: OrderDetail };
    expect((await openGuestOrder(order.number, a.body.token)).status).toBe(404);
  });

  it("comes in the confirmation mail, and the order joins My Orders once the e-mail's account is confirmed", async () => {
    const details = guest();
    const placed = await placeAsGuest({
      ...details,
      items: [{ id: "face-glow-oil", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    });
    const mail = await waitForMail(shop.dataDir, {
      to: details.email,
      subject: new RegExp(`^Order ${placed.body.order.number} placed$`),
    });
    const link = new URL(linkIn(mail, "/guest-order/"));
    expect(link.pathname).toBe(`/guest-order/${placed.body.order.number}`);
    expect(link.searchParams.get("token")).toBe(placed.body.token);
    expect(placed.body).toMatchObject({ hasAccount: false, inAccount: false });

    const account = await signUpViaApp(shop.app, details.email);
    const mine = await callApi(shop.app, "GET", "/api/orders", { as: account });
    expect((mine.body as OrderPage).orders.map((order) => order.number)).toEqual([placed.body.order.number]);
    const reopened = await openGuestOrder(placed.body.order.number, placed.body.token);
    expect(reopened.body).toMatchObject({ inAccount: true, hasAccount: true });
  });
});

describe("staff find a guest's order as they find an account's", () => {
  it("by the e-mail it was placed with, and see that e-mail in the list, the order and the export", async () => {
    const staff = await signUpViaApp(shop.app, "guest-desk@prakriti.example");
    await makeAdmin(shop.db, staff.userId, "staff");
    const asStaff = (path: string) =>
      shop.app.request(path, jsonRequest({ method: "GET", cookie: staff.cookie }));
    const buyer = guest({ email: "kavya.guest@example.in" });
    const placed = await placeAsGuest({
      ...buyer,
      items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    });
    expect(placed.status).toBe(201);
    const { number } = placed.body.order;

    const found = async (q: string) =>
      ((await (await asStaff(`/api/admin/orders?q=${encodeURIComponent(q)}`)).json()) as AdminOrderPage)
        .orders;
    for (const q of ["KAVYA.GUEST@example.in", "Kavya.guest@EXAMPLE.in"]) {
      const rows = await found(q);
      expect(rows.map((row) => row.number)).toEqual([number]);
      expect(rows[0]?.customerEmail).toBe("kavya.guest@example.in");
    }
    const detail = (await (await asStaff(`/api/admin/orders/${number}`)).json()) as {
      order: AdminOrderDetail;
    };
    expect(detail.order.customerEmail).toBe("kavya.guest@example.in");
    const csv = await (await asStaff(`/api/admin/orders/export.csv?q=${number}`)).text();
    expect(csv.split("\r\n")[1]).toContain(`${number},`);
    expect(csv.split("\r\n")[1]).toContain(",kavya.guest@example.in,");
  });
});

describe("Find my order", () => {
  it("mails the link for the right e-mail or mobile, and answers the same for anything else", async () => {
    const details = guest();
    const placed = await placeAsGuest({
      ...details,
      items: [{ id: "bath-powder", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    });
    const { number } = placed.body.order;
    const ask = (contact: string, asked = number) =>
      callApi(shop.app, "POST", "/api/guest-orders/find", {
        body: { number: asked, contact },
        headers: { "X-Forwarded-For": `203.0.113.${guests}` },
      });

    const byEmail = await ask(details.email.toUpperCase());
    expect(byEmail).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER } });
    const mail = await waitForMail(shop.dataDir, {
      to: details.email,
      subject: new RegExp(`^Your order ${number}$`),
    });
    expect(linkIn(mail, "/guest-order/")).toContain(placed.body.token);

    const byMobile = await ask(`+91 ${details.address.phone.slice(0, 5)} ${details.address.phone.slice(5)}`);
    expect(byMobile).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER } });
    await expect
      .poll(async () => (await mailsTo(shop.dataDir, details.email)).length, { timeout: 5000 })
      .toBe(3);

    // A wrong contact and an order that does not exist get the same answer, and send nothing.
    expect(await ask("someone@example.in")).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER } });
    expect(await ask(details.email, "PN-2026-999998")).toEqual({
      status: 202,
      body: { message: FIND_ORDER_ANSWER },
    });
    expect((await ask("not an address")).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await mailsTo(shop.dataDir, details.email)).toHaveLength(3);
    expect(await mailsTo(shop.dataDir, "someone@example.in")).toHaveLength(0);
  });

  it("is limited per order number, in the database", async () => {
    const number = "PN-2026-123456";
    const answers = [];
    for (let attempt = 0; attempt < FIND_ORDER_LIMITS.perOrder + 1; attempt++) {
      answers.push(
        await callApi(shop.app, "POST", "/api/guest-orders/find", {
          body: { number, contact: "9876543210" },
          headers: { "X-Forwarded-For": `198.51.100.${attempt}` },
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([
      ...Array(FIND_ORDER_LIMITS.perOrder).fill(202),
      429,
    ]);
    expect(answers.at(-1)?.body.error.code).toBe("too_many_requests");
  });
});
