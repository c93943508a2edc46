import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OrderDetail, RazorpayCheckout } from "../../common/orders.ts";
import { signUpViaApp, untilSessionShows } from "../../tests/accounts.ts";
import { callApi } from "../../tests/database.ts";
import { type FakeRazorpay, setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import { waitForMail } from "../../tests/mail.ts";
import { placeOrderRequest, putInCart, saveAddress, stockOf, TEST_ADDRESS } from "../../tests/orders.ts";
import { orderEvents, orders, users } from "../db/schema.ts";
import { lookUpPin } from "../delivery/pin-directory.ts";
import { orderWithPayment } from "../money/ledger.ts";
import { claimGuestOrder } from "./claim-guest-orders.ts";

const { shop, fake } = setUpTestAppWithRazorpay();
let guests = 0;

type GuestView = { order: OrderDetail; email: string; token: string };
type Placed = { number: string; token: string; email: string; phone: string; order: OrderDetail };

/** A guest order with a fresh e-mail and mobile each time. */
async function placeAsGuest(
  paymentMethod: "cod" | "razorpay",
  items = [{ id: "face-glow-oil", kind: "product", quantity: 2 }],
): Promise<Placed> {
  guests += 1;
  const email = `payer-guest${guests}@example.in`;
  const phone = `9${String(700_000_000 + guests).padStart(9, "0")}`;
  const placed = await callApi(shop.app, "POST", "/api/guest-orders", {
    headers: { "Idempotency-Key": randomUUID() },
    body: {
      email,
      address: { ...TEST_ADDRESS, phone },
      items,
      paymentMethod,
    },
  });
  expect(placed.status).toBe(201);
  const body = placed.body as GuestView;
  return { number: body.order.number, token: body.token, email, phone, order: body.order };
}

const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;

const openPayment = (number: string, token: string) =>
  callApi(shop.app, "POST", withToken(`/api/guest-orders/${number}/payment`, token));

const verify = (number: string, token: string, paid: ReturnType<FakeRazorpay["pay"]>) =>
  callApi(shop.app, "POST", withToken(`/api/guest-orders/${number}/payment/verify`, token), {
    body: {
      razorpayPaymentId: paid.razorpay_payment_id,
      razorpayOrderId: paid.razorpay_order_id,
      razorpaySignature: paid.razorpay_signature,
    },
  });

const cancel = (number: string, token: string, body: Record<string, unknown> = {}) =>
  callApi(shop.app, "POST", withToken(`/api/guest-orders/${number}/cancel`, token), { body });

const stored = async (number: string) =>
  (await shop.db.select(orderWithPayment).from(orders).where(eq(orders.number, number)))[0];

const eventCount = async (number: string) =>
  (
    await shop.db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, (await stored(number))?.id ?? ""))
  ).length;

describe("a guest pays online through the order's signed link", () => {
  it("opens Razorpay Checkout for the server's total and confirms the order on a verified payment", async () => {
    const guest = await placeAsGuest("razorpay");
    expect(guest.order).toMatchObject({ status: "awaiting_payment", actions: { pay: true } });

    const options = await openPayment(guest.number, guest.token);
    expect(options.status).toBe(200);
    const checkout = options.body as RazorpayCheckout;
    expect(checkout).toMatchObject({
      keyId: fake.keyId,
      amountPaise: 99_800,
      description: `Order ${guest.number}`,
      prefill: { email: guest.email, contact: guest.phone, name: TEST_ADDRESS.name },
    });
    expect(fake.orders.get(checkout.razorpayOrderId)).toMatchObject({
      amount: 99_800,
      receipt: guest.number,
    });
    // Asked again (a second tab, a retry), the same Razorpay order.
    const again = await openPayment(guest.number, guest.token);
    expect((again.body as RazorpayCheckout).razorpayOrderId).toBe(checkout.razorpayOrderId);

    const paid = fake.pay(checkout.razorpayOrderId);
    const verified = await verify(guest.number, guest.token, paid);
    expect(verified.status).toBe(200);
    expect((verified.body as GuestView).order).toMatchObject({
      status: "confirmed",
      actions: { pay: false },
    });
    expect(await stored(guest.number)).toMatchObject({
      status: "confirmed",
      razorpayPaymentId: paid.razorpay_payment_id,
    });

    // The confirmation goes out once paid, with the link to the order's page.
    const mail = await waitForMail(shop.dataDir, { to: guest.email, subject: new RegExp(guest.number) });
    expect(mail.links.some((link) => link.includes(`/guest-order/${guest.number}?token=`))).toBe(true);
  });

  it("cannot open or verify another order's payment, and changes nothing trying", async () => {
    const mine = await placeAsGuest("razorpay", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    const theirs = await placeAsGuest("razorpay", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    const theirCheckout = (await openPayment(theirs.number, theirs.token)).body as RazorpayCheckout;

    // My token on their order, an altered token, and a number that does not exist.
    const wrongToken = await openPayment(theirs.number, mine.token);
    expect(wrongToken.status).toBe(404);
    expect(wrongToken.body.error.code).toBe("order_link_not_found");
    const altered = `${theirs.token.slice(0, -1)}${theirs.token.endsWith("A") ? "B" : "A"}`;
    expect((await openPayment(theirs.number, altered)).status).toBe(404);
    expect((await openPayment("PN-2026-999999", mine.token)).status).toBe(404);
    expect((await openPayment(theirs.number, "not-a-token")).status).toBe(400);

    // Their genuine payment, reported with my token, on their order or on mine.
    const paid = fake.pay(theirCheckout.razorpayOrderId);
    expect((await verify(theirs.number, mine.token, paid)).status).toBe(404);
    await openPayment(mine.number, mine.token);
    const onMine = await verify(mine.number, mine.token, paid);
    expect(onMine.status).toBe(400);
    expect(onMine.body.error.code).toBe("invalid_payment_signature");
    expect((await stored(mine.number))?.status).toBe("awaiting_payment");
    expect((await stored(theirs.number))?.status).toBe("awaiting_payment");

    // An order paid in cash has nothing to pay online.
    const cod = await placeAsGuest("cod", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    expect((await openPayment(cod.number, cod.token)).status).toBe(409);
  });

  it("is confirmed by Razorpay's webhook when the browser never comes back", async () => {
    const guest = await placeAsGuest("razorpay");
    const checkout = (await openPayment(guest.number, guest.token)).body as RazorpayCheckout;
    const paid = fake.pay(checkout.razorpayOrderId);
    const { body, signature } = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);
    const response = await shop.app.request("/api/payments/razorpay/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Razorpay-Signature": signature },
      body,
    });
    expect(response.status).toBe(200);
    const page = await callApi(shop.app, "GET", withToken(`/api/guest-orders/${guest.number}`, guest.token));
    expect((page.body as GuestView).order).toMatchObject({ status: "confirmed", paidAt: expect.any(String) });
    // The browser's late report changes nothing more.
    const events = await eventCount(guest.number);
    expect((await verify(guest.number, guest.token, paid)).status).toBe(200);
    expect(await eventCount(guest.number)).toBe(events);
  });
});

describe("a guest cancels through the order's signed link", () => {
  it("cancels an order that may still be cancelled, puts the stock back and mails the guest", async () => {
    const before = await stockOf(shop.db, "hair-growth-oil");
    const guest = await placeAsGuest("cod", [{ id: "hair-growth-oil", kind: "product", quantity: 3 }]);
    expect(guest.order.actions.cancel).toEqual({ allowed: true, reason: null });
    expect(await stockOf(shop.db, "hair-growth-oil")).toBe((before ?? 0) - 3);

    const cancelled = await cancel(guest.number, guest.token, { reason: "Ordered twice" });
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as GuestView).order).toMatchObject({
      status: "cancelled",
      actions: { cancel: { allowed: false } },
    });
    expect(await stockOf(shop.db, "hair-growth-oil")).toBe(before);
    const [event] = await shop.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, (await stored(guest.number))?.id ?? ""))
      .orderBy(orderEvents.id)
      .then((rows) => rows.slice(-1));
    expect(event).toMatchObject({ actor: "customer", toStatus: "cancelled", note: "Reason: Ordered twice" });
    await waitForMail(shop.dataDir, { to: guest.email, subject: /cancel/i });

    // Once cancelled, again is refused by the same rules as an account's cancel.
    const twice = await cancel(guest.number, guest.token);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("invalid_transition");
  });

  it("refuses a wrong or altered token and another order's token, changing nothing", async () => {
    const before = await stockOf(shop.db, "wax-powder");
    const mine = await placeAsGuest("cod", [{ id: "wax-powder", kind: "product", quantity: 1 }]);
    const theirs = await placeAsGuest("cod", [{ id: "wax-powder", kind: "product", quantity: 1 }]);
    const events = await eventCount(theirs.number);

    const withMine = await cancel(theirs.number, mine.token);
    expect(withMine.status).toBe(404);
    expect(withMine.body.error.code).toBe("order_link_not_found");
    const altered = `${theirs.token.slice(0, -1)}${theirs.token.endsWith("A") ? "B" : "A"}`;
    expect((await cancel(theirs.number, altered)).status).toBe(404);
    expect((await cancel("PN-2026-999998", theirs.token)).status).toBe(404);
    expect((await cancel(theirs.number, "")).status).toBe(400);
    expect((await cancel(theirs.number, theirs.token, { reason: "x", status: "refunded" })).status).toBe(400);

    expect((await stored(theirs.number))?.status).toBe("placed");
    expect(await eventCount(theirs.number)).toBe(events);
    expect(await stockOf(shop.db, "wax-powder")).toBe((before ?? 0) - 2);
  });

  it("is refused once the order has shipped, with the reason the account's page gives", async () => {
    const guest = await placeAsGuest("cod", [{ id: "hair-wash-powder", kind: "product", quantity: 1 }]);
    await shop.db.update(orders).set({ status: "shipped" }).where(eq(orders.number, guest.number));
    const page = await callApi(shop.app, "GET", withToken(`/api/guest-orders/${guest.number}`, guest.token));
    expect((page.body as GuestView).order.actions.cancel.allowed).toBe(false);
    const refused = await cancel(guest.number, guest.token);
    expect(refused.status).toBe(409);
    expect((await stored(guest.number))?.status).toBe("shipped");
  });
});

describe("an order keeps the district of its address", () => {
  it("from the form, else from India Post's directory; orders from before have none", async () => {
    const typed = await callApi(shop.app, "POST", "/api/guest-orders", {
      headers: { "Idempotency-Key": randomUUID() },
      body: {
        email: "district-typed@example.in",
        address: { ...TEST_ADDRESS, phone: "9612345678", district: "Bengaluru Urban" },
        items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
        paymentMethod: "cod",
      },
    });
    expect(typed.status).toBe(201);
    expect((typed.body as GuestView).order.address.district).toBe("Bengaluru Urban");

    const directory = (await lookUpPin(TEST_ADDRESS.pin))?.district;
    expect(directory).toBeTruthy();
    const untyped = await placeAsGuest("cod", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    expect(untyped.order.address.district).toBe(directory);
    expect((await stored(untyped.number))?.shipDistrict).toBe(directory);

    const member = await signUpViaApp(shop.app, "district-member@example.in");
    await putInCart(shop.db, member.userId, [{ itemId: "coconut-oil" }]);
    const addressId = await saveAddress(shop.app, member.cookie);
    const placed = await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "cod" });
    expect(((await placed.json()) as { order: OrderDetail }).order.address.district).toBe(directory);

    // An order placed before orders kept the district shows none rather than a guess.
    await shop.db.update(orders).set({ shipDistrict: null }).where(eq(orders.number, untyped.number));
    const old = await callApi(
      shop.app,
      "GET",
      withToken(`/api/guest-orders/${untyped.number}`, untyped.token),
    );
    expect((old.body as GuestView).order.address.district).toBeNull();
  });
});

describe("an account made after a guest order", () => {
  it("starts its address book with the order's address once the order is added, and only an empty one", async () => {
    const guest = await placeAsGuest("cod", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    const account = await signUpViaApp(shop.app, guest.email);
    const untouched = await callApi(shop.app, "GET", "/api/addresses", { as: account });
    expect(untouched.body.addresses).toEqual([]);
    const added = await callApi(
      shop.app,
      "POST",
      withToken(`/api/guest-orders/${guest.number}/claim`, guest.token),
      { as: account, body: {} },
    );
    expect(added.status).toBe(200);
    const book = await callApi(shop.app, "GET", "/api/addresses", { as: account });
    expect(book.status).toBe(200);
    const directory = (await lookUpPin(TEST_ADDRESS.pin))?.district;
    expect(book.body.addresses).toEqual([
      {
        id: expect.any(String),
        name: TEST_ADDRESS.name,
        phone: guest.phone,
        line1: TEST_ADDRESS.line1,
        line2: TEST_ADDRESS.line2,
        city: TEST_ADDRESS.city,
        district: directory,
        state: TEST_ADDRESS.state,
        pin: TEST_ADDRESS.pin,
      },
    ]);
    const checkout = await callApi(shop.app, "GET", "/api/checkout", { as: account });
    expect(checkout.body.addresses).toHaveLength(1);

    // An account that keeps addresses already is left as it is.
    const second = await placeAsGuest("cod", [{ id: "coconut-oil", kind: "product", quantity: 1 }]);
    const keeper = await signUpViaApp(shop.app, `keeper-${second.email}`);
    await saveAddress(shop.app, keeper.cookie, { ...TEST_ADDRESS, line1: "7, Keeper's Lane" });
    await shop.db.update(orders).set({ guestEmail: keeper.email }).where(eq(orders.number, second.number));
    await claimGuestOrder(shop.db, keeper.userId, (await stored(second.number))?.id ?? "");
    const kept = await callApi(shop.app, "GET", "/api/addresses", { as: keeper });
    expect(kept.body.addresses.map((address: { line1: string }) => address.line1)).toEqual([
      "7, Keeper's Lane",
    ]);
  });
});

describe("Razorpay Checkout's prefill", () => {
  it("gives no e-mail for an account made with a mobile, which has only a stand-in address", async () => {
    const member = await signUpViaApp(shop.app, "becomes-mobile@example.in");
    await shop.db
      .update(users)
      .set({ email: "919812300001@mobile.invalid" })
      .where(eq(users.id, member.userId));
    await untilSessionShows(shop, member, (user) => user?.email === "919812300001@mobile.invalid");
    await putInCart(shop.db, member.userId, [{ itemId: "coconut-oil" }]);
    const addressId = await saveAddress(shop.app, member.cookie);
    const placed = await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "razorpay" });
    const { order } = (await placed.json()) as { order: OrderDetail };
    const options = await callApi(shop.app, "POST", `/api/orders/${order.number}/payment`, { as: member });
    expect(options.status).toBe(200);
    expect((options.body as RazorpayCheckout).prefill).toEqual({
      name: TEST_ADDRESS.name,
      email: "",
      contact: "9876543210",
    });
  });
});
