import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { OrderDetail, RazorpayCheckout } from "../../common/orders.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp } from "../../tests/database.ts";
import { type FakeRazorpay, setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import { waitForMail } from "../../tests/mail.ts";
import {
  asUser,
  type Customer,
  placeOrderRequest,
  putInCart,
  setStock,
  signUpWithAddress,
  stockOf,
} from "../../tests/orders.ts";
import { orderEvents, orders } from "../db/schema.ts";
import { moneyEntriesOf, orderMoney, orderWithPayment } from "../money/ledger.ts";
import { expireUnpaidOrders } from "../orders/order-status.ts";

const { shop, fake } = setUpTestAppWithRazorpay();
let accounts = 0;

const customer = () => signUpWithAddress(shop.app, `payer${++accounts}@example.in`);

/** An order placed for online payment, and the Razorpay Checkout options the page would open. */
async function orderAwaitingPayment(who: Customer, itemId = "face-glow-oil") {
  await putInCart(shop.db, who.userId, [{ itemId, quantity: 2 }]);
  const placed = await placeOrderRequest(shop.app, who.cookie, {
    addressId: who.addressId,
    paymentMethod: "razorpay",
  });
  expect(placed.status).toBe(201);
  const { order } = (await placed.json()) as { order: OrderDetail };
  const options = await shop.app.request(
    `/api/orders/${order.number}/payment`,
    asUser(who.cookie, { method: "POST" }),
  );
  expect(options.status).toBe(200);
  return { order, checkout: (await options.json()) as RazorpayCheckout };
}

const verify = (who: TestAccount, number: string, paid: ReturnType<FakeRazorpay["pay"]>) =>
  shop.app.request(
    `/api/orders/${number}/payment/verify`,
    asUser(who.cookie, {
      method: "POST",
      body: {
        razorpayPaymentId: paid.razorpay_payment_id,
        razorpayOrderId: paid.razorpay_order_id,
        razorpaySignature: paid.razorpay_signature,
      },
    }),
  );

const sendWebhook = (body: string, signature: string) =>
  shop.app.request("/api/payments/razorpay/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Razorpay-Signature": signature },
    body,
  });

const eventsOf = async (number: string) => {
  const [order] = await shop.db.select().from(orders).where(eq(orders.number, number));
  return shop.db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, order?.id ?? ""));
};

describe("paying with Razorpay", () => {
  it("creates the Razorpay order through the API, once, for the server's total", async () => {
    const meera = await customer();
    const { order, checkout } = await orderAwaitingPayment(meera);
    expect(order).toMatchObject({ status: "awaiting_payment", actions: { pay: true } });
    expect(checkout).toMatchObject({
      keyId: fake.keyId,
      scriptUrl: `${fake.url}/v1/checkout.js`,
      amountPaise: 99_800,
      currency: "INR",
      description: `Order ${order.number}`,
      prefill: { email: meera.email, contact: "9876543210", name: "Meera Iyer" },
    });
    expect(fake.orders.get(checkout.razorpayOrderId)).toMatchObject({
      amount: 99_800,
      receipt: order.number,
    });

    const again = await shop.app.request(
      `/api/orders/${order.number}/payment`,
      asUser(meera.cookie, { method: "POST" }),
    );
    expect(((await again.json()) as RazorpayCheckout).razorpayOrderId).toBe(checkout.razorpayOrderId);
  });

  it("confirms the order on a verified signature, and a second confirmation changes nothing", async () => {
    const meera = await customer();
    const { order, checkout } = await orderAwaitingPayment(meera);
    const paid = fake.pay(checkout.razorpayOrderId);

    const first = await verify(meera, order.number, paid);
    expect(first.status).toBe(200);
    const confirmed = ((await first.json()) as { order: OrderDetail }).order;
    expect(confirmed).toMatchObject({ status: "confirmed", actions: { pay: false } });
    expect(confirmed.paidAt).not.toBeNull();
    const eventsAfterFirst = await eventsOf(order.number);

    const second = await verify(meera, order.number, paid);
    expect(second.status).toBe(200);
    const webhook = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);
    expect((await sendWebhook(webhook.body, webhook.signature)).status).toBe(200);
    expect(await eventsOf(order.number)).toEqual(eventsAfterFirst);
    const [stored] = await shop.db
      .select(orderWithPayment)
      .from(orders)
      .where(eq(orders.number, order.number));
    expect(stored).toMatchObject({ status: "confirmed", razorpayPaymentId: paid.razorpay_payment_id });
  });

  it("refuses a forged signature, and a payment of another order", async () => {
    const meera = await customer();
    const { order, checkout } = await orderAwaitingPayment(meera);
    const paid = fake.pay(checkout.razorpayOrderId);
    const forged = await verify(meera, order.number, { ...paid, razorpay_signature: "0".repeat(64) });
    expect(forged.status).toBe(400);
    expect((await forged.json()).error.code).toBe("invalid_payment_signature");

    // Another shopper's order: one account waits on one online payment at a time (decision 020).
    const other = await orderAwaitingPayment(await customer(), "coconut-oil");
    const otherPaid = fake.pay(other.checkout.razorpayOrderId);
    // A genuine signature for a different Razorpay order does not pay this one.
    expect((await verify(meera, order.number, otherPaid)).status).toBe(400);
    const [stored] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
    expect(stored?.status).toBe("awaiting_payment");
  });

  it("is confirmed by the webhook when the browser never came back", async () => {
    const meera = await customer();
    const { order, checkout } = await orderAwaitingPayment(meera);
    const paid = fake.pay(checkout.razorpayOrderId);
    const { body, signature } = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);

    expect((await sendWebhook(body, "f".repeat(64))).status).toBe(400);
    expect((await sendWebhook(`${body} `, signature)).status).toBe(400);

    const response = await sendWebhook(body, signature);
    expect(response.status).toBe(200);
    const page = await shop.app.request(`/api/orders/${order.number}`, asUser(meera.cookie));
    expect(((await page.json()) as { order: OrderDetail }).order.status).toBe("confirmed");
    const events = await eventsOf(order.number);
    expect(events.at(-1)).toMatchObject({
      actor: "payment",
      fromStatus: "awaiting_payment",
      toStatus: "confirmed",
    });

    expect((await sendWebhook(body, signature)).status).toBe(200);
    expect(await eventsOf(order.number)).toHaveLength(events.length);
  });

  it("acknowledges events it does not act on", async () => {
    const body = JSON.stringify({ event: "refund.processed", payload: {} });
    const { createHmac } = await import("node:crypto");
    const signature = createHmac("sha256", fake.webhookSecret).update(body).digest("hex");
    expect((await sendWebhook(body, signature)).status).toBe(200);
  });
});

describe("unpaid orders", () => {
  it("lapse after the payment window, having held no stock", async () => {
    const meera = await customer();
    const before = await stockOf(shop.db, "hair-growth-serum");
    const { order } = await orderAwaitingPayment(meera, "hair-growth-serum");
    expect(await stockOf(shop.db, "hair-growth-serum")).toBe(before);

    expect(await expireUnpaidOrders(shop.deps, new Date(Date.now() + 29 * 60_000))).toBe(0);
    // Earlier tests left unpaid orders too; all lapse together.
    expect(await expireUnpaidOrders(shop.deps, new Date(Date.now() + 31 * 60_000))).toBeGreaterThanOrEqual(1);
    const [stored] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
    expect(stored?.status).toBe("cancelled");
    expect(await stockOf(shop.db, "hair-growth-serum")).toBe(before);
    expect((await eventsOf(order.number)).at(-1)).toMatchObject({
      actor: "system",
      note: "Not paid within 30 minutes",
    });
  });

  it("refund a payment that arrives after the lapse in full, automatically and once, and tell the shopper", async () => {
    const meera = await customer();
    const { order, checkout } = await orderAwaitingPayment(meera);
    await expireUnpaidOrders(shop.deps, new Date(Date.now() + 31 * 60_000));
    const paid = fake.pay(checkout.razorpayOrderId);
    const late = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);
    // Told by the webhook twice and the browser once: taken once, answered 200 each time.
    expect((await sendWebhook(late.body, late.signature)).status).toBe(200);
    expect((await sendWebhook(late.body, late.signature)).status).toBe(200);
    expect((await verify(meera, order.number, paid)).status).toBe(200);
    const [stored] = await shop.db
      .select(orderWithPayment)
      .from(orders)
      .where(eq(orders.number, order.number));
    expect(stored).toMatchObject({ status: "cancelled", razorpayPaymentId: null, paidAt: null });

    await vi.waitFor(
      () =>
        expect(fake.refunds.filter((each) => each.paymentId === paid.razorpay_payment_id)).toHaveLength(1),
      { timeout: 10_000 },
    );
    expect(fake.refunds).toContainEqual(
      expect.objectContaining({ paymentId: paid.razorpay_payment_id, amount: 99_800 }),
    );
    await vi.waitFor(
      async () => expect((await orderMoney(shop.db, stored?.id ?? "")).unappliedPendingPaise).toBe(0),
      { timeout: 10_000 },
    );
    const ledger = await moneyEntriesOf(shop.db, stored?.id ?? "");
    expect(ledger.map(({ kind, amountPaise, applied }) => ({ kind, amountPaise, applied }))).toEqual([
      { kind: "online_payment", amountPaise: 99_800, applied: false },
      { kind: "online_refund", amountPaise: 99_800, applied: false },
    ]);
    const notes = (await eventsOf(order.number)).map((event) => event.note ?? "");
    expect(notes.some((note) => note.includes("refunded in full automatically"))).toBe(true);
    const mail = await waitForMail(shop.dataDir, { to: meera.email, subject: /your payment is refunded/ });
    expect(mail.text).toContain("We have refunded all of it");

    // Nothing is left for staff to refund by hand.
    const staff = await signUpWithRole(shop, "refunds@example.in", "owner");
    const refund = await shop.app.request(
      `/api/admin/orders/${order.number}/status`,
      asUser(staff.cookie, { method: "POST", body: { status: "refunded" } }),
    );
    expect(refund.status).toBe(409);
  });
});

describe("the last units (docs/decisions/083)", () => {
  const statusOf = async (number: string) =>
    (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]
      ?.status;

  it("go to whoever pays first: six unpaid orders for three units hold none, and the payments too late are refunded whole", async () => {
    await setStock(shop.db, "coconut-oil", 3);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => customer()));
    const waiting = await Promise.all(buyers.map((buyer) => orderAwaitingPayment(buyer, "coconut-oil")));
    // Every order of two was placed, and none took a unit while unpaid.
    expect(await stockOf(shop.db, "coconut-oil")).toBe(3);

    const paid = waiting.map(({ checkout }) => fake.pay(checkout.razorpayOrderId));
    // All at once, half told by the browser and half by Razorpay's webhook.
    const answers = await Promise.all(
      waiting.map(({ order, checkout }, index) => {
        const payment = paid[index];
        if (!payment) throw new Error("no payment");
        if (index % 2 === 0) return verify(buyers[index] as TestAccount, order.number, payment);
        const told = fake.webhook(checkout.razorpayOrderId, payment.razorpay_payment_id);
        return sendWebhook(told.body, told.signature);
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const statuses = await Promise.all(waiting.map(({ order }) => statusOf(order.number)));
    expect(statuses.filter((status) => status === "confirmed")).toHaveLength(1);
    expect(statuses.filter((status) => status === "cancelled")).toHaveLength(5);
    expect(await stockOf(shop.db, "coconut-oil")).toBe(1);

    const late = waiting.filter((_, index) => statuses[index] === "cancelled");
    const latePayments = new Set(
      late.map(
        ({ checkout }) =>
          paid.find((each) => each.razorpay_order_id === checkout.razorpayOrderId)?.razorpay_payment_id,
      ),
    );
    await vi.waitFor(
      () => expect(fake.refunds.filter((each) => latePayments.has(each.paymentId))).toHaveLength(5),
      { timeout: 20_000 },
    );
    for (const { order } of late) {
      expect(fake.refunds).toContainEqual(expect.objectContaining({ amount: order.totalPaise }));
      const [row] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
      await vi.waitFor(
        async () => expect((await orderMoney(shop.db, row?.id ?? "")).unappliedPendingPaise).toBe(0),
        { timeout: 10_000 },
      );
    }
    const lateBuyer = buyers[waiting.indexOf(late[0] as (typeof waiting)[number])] as TestAccount;
    const mail = await waitForMail(shop.dataDir, {
      to: lateBuyer.email,
      subject: /your payment is refunded/,
    });
    expect(mail.text).toContain("had been sold, so the order has been cancelled");
  }, 60_000);

  it("are looked at when Checkout opens: an order whose items sold out meanwhile is cancelled before anything is charged", async () => {
    await setStock(shop.db, "coconut-oil", 2);
    const buyer = await customer();
    await putInCart(shop.db, buyer.userId, [{ itemId: "coconut-oil", quantity: 2 }]);
    const placed = await placeOrderRequest(shop.app, buyer.cookie, {
      addressId: buyer.addressId,
      paymentMethod: "razorpay",
    });
    expect(placed.status).toBe(201);
    const { order } = (await placed.json()) as { order: OrderDetail };
    // A cash-on-delivery shopper buys one meanwhile.
    await setStock(shop.db, "coconut-oil", 1);

    const opened = await shop.app.request(
      `/api/orders/${order.number}/payment`,
      asUser(buyer.cookie, { method: "POST" }),
    );
    expect(opened.status).toBe(409);
    expect(await opened.json()).toEqual({
      error: {
        code: "out_of_stock",
        message:
          "Coconut Oil sold out before this order was paid, so it has been cancelled. Nothing was charged.",
      },
    });
    expect(await statusOf(order.number)).toBe("cancelled");
    expect(fake.orders.size).toBeGreaterThan(0);
    expect([...fake.orders.values()].some((made) => made.receipt === order.number)).toBe(false);
    expect((await eventsOf(order.number)).at(-1)).toMatchObject({
      actor: "system",
      note: "Cancelled before payment: the last units were sold before this order was paid",
    });
    expect(await stockOf(shop.db, "coconut-oil")).toBe(1);
  });
});

describe("the Content-Security-Policy", () => {
  it("allows the Razorpay Checkout hosts only when Razorpay is configured", async () => {
    const withRazorpay = (await shop.app.request("/api/health")).headers.get("Content-Security-Policy") ?? "";
    expect(withRazorpay).toMatch(
      new RegExp(
        `script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+' ${fake.url.replace(/\./g, "\\.")}`,
      ),
    );
    expect(withRazorpay).toContain(`frame-src 'self' ${fake.url}`);

    const plain = await createTestApp();
    try {
      const csp = (await plain.app.request("/api/health")).headers.get("Content-Security-Policy") ?? "";
      // The theme script and the app loader, by their hashes, are the only inline scripts allowed.
      expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+';/);
      expect(csp).not.toContain("frame-src");
      const webhook = await plain.app.request("/api/payments/razorpay/webhook", {
        method: "POST",
        body: "{}",
      });
      expect(webhook.status).toBe(503);
    } finally {
      await plain.close();
    }
  });
});

describe("what the shop sends Razorpay", () => {
  it("is only what Razorpay documents: the fake refuses any other field, as Razorpay's validator does", async () => {
    const call = (path: string, body: unknown) =>
      fetch(`${fake.url}${path}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Basic ${Buffer.from(`${fake.keyId}:${fake.keySecret}`).toString("base64")}`,
        },
        body: JSON.stringify(body),
      });
    const extra = await call("/v1/orders", { amount: 49_900, currency: "INR", receipt: "r1", customer: "x" });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toEqual({
      error: {
        code: "BAD_REQUEST_ERROR",
        description: "customer is/are not required and should not be sent",
        field: "customer",
      },
    });
    // The shop's own order and refund went through it in the tests above, every field documented.
    expect(fake.orders.size).toBeGreaterThan(0);
    expect(fake.refunds.length).toBeGreaterThan(0);
  });
});
