import { randomUUID } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  CheckoutSummary,
  OrderDetail,
  OrderPage,
} from "../../common/orders.ts";
import { signUpViaApp, signUpWithRole } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { linkIn, mailsTo, smsMentioning, waitForMail } from "../../tests/mail.ts";
import {
  placeOrderRequest,
  putInCart,
  saveAddress,
  setStock,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { combos, discountCodes, guestDiscountUses, guestOrderRequests, orders } from "../db/schema.ts";
import { FIND_ORDER_ANSWER, FIND_ORDER_ANSWER_BY_MOBILE, FIND_ORDER_LIMITS } from "../guest-orders.routes.ts";
import { matchDltTemplate } from "../sms/sms-sender.ts";
import { GUEST_CHECKOUT_LIMITS } from "./checkout.routes.ts";

const shop = setUpTestApp();
let guests = 0;

type GuestAnswer = {
  order: OrderDetail;
  token: string;
  email: string;
  inAccount: boolean;
  canAddToAccount: boolean;
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

  it("limits a guest's checkout that names an e-mail, mobile or address per client; the cart alone is free", async () => {
    const items = [{ id: "bath-powder", kind: "product", quantity: 1 }];
    const check = (body: object, client: string) =>
      shop.app.request(
        "/api/checkout/guest",
        jsonRequest({ method: "POST", body: { items, ...body }, headers: { "X-Forwarded-For": client } }),
      );
    const client = "203.0.113.7";
    const statuses = [];
    for (let attempt = 0; attempt < GUEST_CHECKOUT_LIMITS.perClient; attempt++) {
      const contact = [{ email: `asks${attempt}@example.in` }, { mobile: "9876543210" }, guest()][
        attempt % 3
      ];
      statuses.push((await check(contact ?? {}, client)).status);
    }
    expect(statuses).toEqual(Array(GUEST_CHECKOUT_LIMITS.perClient).fill(200));
    const refused = await check({ mobile: "9876543211" }, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe("too_many_requests");
    // The cart priced without anyone named tells nothing of anyone: the page still loads.
    expect((await check({}, client)).status).toBe(200);
    expect((await check({ mobile: "9876543211" }, "203.0.113.8")).status).toBe(200);
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

    // A guest who then adds the order to an account with that e-mail has the use in the account too.
    const later = guest({ email: "guest-then-member@example.in" });
    const ordered = await placeAsGuest({ ...later, items, discountCode: "WELCOME10", paymentMethod: "cod" });
    expect(ordered.status).toBe(201);
    const joined = await signUpViaApp(shop.app, later.email);
    const added = await callApi(
      shop.app,
      "POST",
      `/api/guest-orders/${ordered.body.order.number}/claim?token=${encodeURIComponent(ordered.body.token)}`,
      { as: joined, body: {} },
    );
    expect(added.status).toBe(200);
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

    // Refused exactly as a number that does not exist is (guest-order-limits.test.ts).
    const swapped = await openGuestOrder(a.body.order.number, b.body.token);
    expect(swapped.status).toBe(404);
    expect(swapped.body.error.code).toBe("order_link_not_found");
    const last = a.body.token.at(-1) === "A" ? "B" : "A";
    const altered = await openGuestOrder(a.body.order.number, `${a.body.token.slice(0, -1)}${last}`);
    expect(altered.status).toBe(404);
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

  it("comes in the confirmation mail, with the link that adds the order to the account with that address", async () => {
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
    const links = mail.links
      .map((each) => new URL(each))
      .filter((url) => url.pathname.startsWith("/guest-order/"));
    for (const link of links) {
      expect(link.pathname).toBe(`/guest-order/${placed.body.order.number}`);
      expect(link.searchParams.get("token")).toBe(placed.body.token);
    }
    const claim = links.find((link) => link.searchParams.has("claim"))?.searchParams.get("claim");
    expect(claim).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The answer to whoever placed the order never carries it: only the mailbox does.
    expect(JSON.stringify(placed.body)).not.toContain(claim);
    expect(placed.body).toMatchObject({ inAccount: false, canAddToAccount: false });

    const account = await signUpViaApp(shop.app, details.email);
    const addTo = (body: Record<string, unknown>, as?: { cookie: string }) =>
      callApi(
        shop.app,
        "POST",
        `/api/guest-orders/${placed.body.order.number}/claim?token=${encodeURIComponent(placed.body.token)}`,
        { body, as },
      );
    const before = await callApi(shop.app, "GET", "/api/orders", { as: account });
    expect((before.body as OrderPage).orders).toEqual([]);
    const added = await addTo({ claim });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ inAccount: true, canAddToAccount: false });
    const mine = await callApi(shop.app, "GET", "/api/orders", { as: account });
    expect((mine.body as OrderPage).orders.map((order) => order.number)).toEqual([placed.body.order.number]);
    // A second tap changes nothing.
    expect((await addTo({ claim })).status).toBe(200);
  });
});

describe("a guest order joins an account only when the owner of its address says so", () => {
  const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];

  it("a stranger's order with someone's e-mail puts nothing in their account at sign-in", async () => {
    const victim = await signUpViaApp(shop.app, "victim@example.in");
    const stranger = await placeAsGuest({
      ...guest({ email: "victim@example.in" }),
      address: { ...TEST_ADDRESS, line1: "13, Stranger's Street", phone: "9811122233" },
      items,
      discountCode: "WELCOME10",
      paymentMethod: "cod",
    });
    expect(stranger.status).toBe(201);
    // Signing in again, as the old code claimed guest orders at every sign-in.
    const signedIn = await shop.app.request(
      "/api/auth/sign-in/email",
      jsonRequest({ method: "POST", body: { email: victim.email, password: "neem-and-tulsi-2026" } }),
    );
    expect(signedIn.status).toBe(200);

    const mine = await callApi(shop.app, "GET", "/api/orders", { as: victim });
    expect((mine.body as OrderPage).orders).toEqual([]);
    const book = await callApi(shop.app, "GET", "/api/addresses", { as: victim });
    expect(book.body.addresses).toEqual([]);
    const apply = await callApi(shop.app, "POST", "/api/discounts/apply", {
      as: victim,
      body: { code: "WELCOME10" },
    });
    expect(apply.status).toBe(200);
    expect((await openGuestOrder(stranger.body.order.number, stranger.body.token)).body.inAccount).toBe(
      false,
    );

    // The order's own token, which the stranger holds, adds it to no account: not signed in, nor signed in
    // to another, nor with a made-up mailed link.
    const path = `/api/guest-orders/${stranger.body.order.number}/claim?token=${encodeURIComponent(stranger.body.token)}`;
    expect((await callApi(shop.app, "POST", path, { body: {} })).status).toBe(401);
    const other = await signUpViaApp(shop.app, "someone-else-entirely@example.in");
    const asOther = await callApi(shop.app, "POST", path, { body: {}, as: other });
    expect(asOther.status).toBe(403);
    expect(asOther.body.error.code).toBe("not_your_address");
    const forged = await callApi(shop.app, "POST", path, { body: { claim: stranger.body.token } });
    expect(forged.status).toBe(403);
    expect((await callApi(shop.app, "GET", "/api/orders", { as: victim })).body.orders).toEqual([]);
  });

  it("is offered on the order's page to the signed-in owner of the address, and added with one tap", async () => {
    const owner = await signUpViaApp(shop.app, "taps-add@example.in");
    const placed = await placeAsGuest({ ...guest({ email: owner.email }), items, paymentMethod: "cod" });
    const path = `/api/guest-orders/${placed.body.order.number}`;
    const query = `?token=${encodeURIComponent(placed.body.token)}`;
    const seen = await callApi(shop.app, "GET", `${path}${query}`, { as: owner });
    expect(seen.body).toMatchObject({ inAccount: false, canAddToAccount: true });
    const added = await callApi(shop.app, "POST", `${path}/claim${query}`, { body: {}, as: owner });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ inAccount: true });
    const book = await callApi(shop.app, "GET", "/api/addresses", { as: owner });
    expect(book.body.addresses).toHaveLength(1);
  });
});

describe("no answer tells whether an e-mail or mobile has an account", () => {
  it("a guest order's answer is the same for an e-mail with an account and one without", async () => {
    await signUpViaApp(shop.app, "has-an-account@example.in");
    const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];
    const withAccount = await placeAsGuest({
      ...guest({ email: "has-an-account@example.in" }),
      items,
      paymentMethod: "cod",
    });
    const without = await placeAsGuest({
      ...guest({ email: "has-none@example.in" }),
      items,
      paymentMethod: "cod",
    });
    const shape = (body: GuestAnswer) => {
      const { order: _order, token: _token, email: _email, ...rest } = body;
      return rest;
    };
    expect(shape(withAccount.body)).toEqual(shape(without.body));
    expect(withAccount.body).not.toHaveProperty("hasAccount");
  });

  it("refuses a mobile account's stand-in address as a guest's e-mail", async () => {
    const placed = await placeAsGuest({
      ...guest({ email: "919876543210@mobile.invalid" }),
      items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    });
    expect(placed.status).toBe(400);
    expect(placed.body.error?.fields).toHaveProperty("email");
  });
});

describe("staff find a guest's order as they find an account's", () => {
  it("by the e-mail it was placed with, and see that e-mail in the list, the order and the export", async () => {
    const staff = await signUpWithRole(shop, "guest-desk@prakriti.example", "staff");
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
  it("mails the link for the right e-mail or mobile, texts it to that mobile, and answers the same for anything else", async () => {
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
    expect(byMobile).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER_BY_MOBILE } });
    await expect
      .poll(async () => (await mailsTo(shop.dataDir, details.email)).length, { timeout: 5000 })
      .toBe(3);
    // The mobile typed gets the link too, in the words of the registered order template.
    const texts = await smsMentioning(shop.dataDir, `order ${number} is placed. See it: `);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(`To: ${details.address.phone.replace(/\D/g, "")}`);
    expect(texts[0]).toMatch(
      new RegExp(
        `^Prakriti Naturals: order ${number} is placed\\. See it: \\S*/guest-order/${number}\\?token=${placed.body.token}$`,
        "m",
      ),
    );
    expect(matchDltTemplate(texts[0]?.split("\n\n")[1]?.trim() ?? "")).toBe("orderNotice");

    // A wrong contact and an order that does not exist get the same answer, and send nothing.
    expect(await ask("someone@example.in")).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER } });
    expect(await ask("9000000001")).toEqual({ status: 202, body: { message: FIND_ORDER_ANSWER_BY_MOBILE } });
    expect(await ask(details.email, "PN-2026-999998")).toEqual({
      status: 202,
      body: { message: FIND_ORDER_ANSWER },
    });
    expect((await ask("not an address")).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await mailsTo(shop.dataDir, details.email)).toHaveLength(3);
    expect(await mailsTo(shop.dataDir, "someone@example.in")).toHaveLength(0);
    expect(await smsMentioning(shop.dataDir, "9000000001", 0)).toEqual([]);
    expect(await smsMentioning(shop.dataDir, `order ${number} is placed. See it: `, 0)).toHaveLength(1);
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
