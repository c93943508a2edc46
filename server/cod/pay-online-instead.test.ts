import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CodConfirmPage, ToConfirmList } from "../../common/cod-confirm.ts";
import type { RazorpayCheckout } from "../../common/orders.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp, jsonRequest } from "../../tests/database.ts";
import { setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import { asUser, orderRowOf, placeCodOrder, setStock, signUpWithAddress } from "../../tests/orders.ts";
import { codPaymentSwitches, orderEvents, orders, razorpayOrders } from "../db/schema.ts";
import { orderMoney, orderWithPayment } from "../money/ledger.ts";
import { savePrepaidIncentive } from "./cod-rules.ts";
import { codConfirmToken } from "./confirm-link.ts";

const { shop, fake } = setUpTestAppWithRazorpay();
let owner: TestAccount;
let accounts = 0;

async function placeCod(app = shop) {
  const account = await signUpWithAddress(app.app, `switch${++accounts}@example.in`);
  const { number } = await placeCodOrder(app, account, [{ itemId: "badam-mix" }]);
  return orderRowOf(app.db, number);
}

const linkPath = (app: typeof shop, row: { id: string; number: string }, action = "") =>
  `/api/cod-confirm/${row.number}${action}?token=${codConfirmToken(app.deps.authSecret, row.id)}`;
const post = async (app: typeof shop, url: string, body: unknown = {}) => {
  const response = await app.app.request(url, jsonRequest({ method: "POST", body }));
  return { status: response.status, body: await response.json() };
};
const rowOf = async (id: string) =>
  (await shop.db.select(orderWithPayment).from(orders).where(eq(orders.id, id)))[0];
const eventsOf = (id: string) => shop.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));

beforeAll(async () => {
  owner = await signUpViaApp(shop.app, "switch-owner@example.in");
  await makeAdmin(shop, owner, "owner");
  await setStock(shop.db, "badam-mix", 200);
  // ₹30 off for paying online; badam mix is ₹399 with ₹49 shipping, ₹448 in cash.
  await savePrepaidIncentive(
    shop.db,
    { kind: "flat", amountPaise: 3000 },
    { id: owner.userId, email: owner.email },
  );
});

describe("paying online instead, from the confirmation link", () => {
  it("offers the amount due paid online with the incentive, and opens one Razorpay order however many taps", async () => {
    const order = await placeCod();
    const page = (await (await shop.app.request(linkPath(shop, order))).json()) as CodConfirmPage;
    expect(page.payOnline).toEqual({ totalPaise: 41_800, savingPaise: 3000 });

    const taps = await Promise.all(
      Array.from({ length: 12 }, () => post(shop, linkPath(shop, order, "/pay-online"))),
    );
    expect(taps.map((tap) => tap.status)).toEqual(Array(12).fill(200));
    const ids = new Set(taps.map((tap) => (tap.body as RazorpayCheckout).razorpayOrderId));
    expect(ids.size).toBe(1);
    expect(taps[0]?.body).toMatchObject({ amountPaise: 41_800, currency: "INR" });
    const made = [...fake.orders.values()].filter((each) => each.receipt === order.number);
    expect(made).toEqual([expect.objectContaining({ amount: 41_800 })]);
    expect(
      await shop.db.select().from(codPaymentSwitches).where(eq(codPaymentSwitches.orderId, order.id)),
    ).toHaveLength(1);
    const notes = (await eventsOf(order.id)).map((event) => event.note);
    expect(notes.filter((note) => note?.startsWith("Chose to pay online instead"))).toEqual([
      expect.stringContaining("₹418 to pay (paying online saves ₹30)"),
    ]);
    // Until it is paid, nothing about the order changes: closing the payment window leaves it as it was.
    expect(await rowOf(order.id)).toMatchObject({
      status: "placed",
      paymentMethod: "cod",
      totalPaise: 44_800,
      paidAt: null,
    });
  });

  it("makes the order a paid online order once the payment is verified, confirmed without asking", async () => {
    const order = await placeCod();
    const opened = await post(shop, linkPath(shop, order, "/pay-online"));
    const checkout = opened.body as RazorpayCheckout;
    const paid = fake.pay(checkout.razorpayOrderId);
    const body = {
      razorpayPaymentId: paid.razorpay_payment_id,
      razorpayOrderId: paid.razorpay_order_id,
      razorpaySignature: paid.razorpay_signature,
    };
    const verified = await post(shop, linkPath(shop, order, "/pay-online/verify"), body);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      state: "confirmed",
      paymentMethod: "razorpay",
      totalPaise: 41_800,
      payOnline: null,
    });
    expect(await rowOf(order.id)).toMatchObject({
      status: "confirmed",
      paymentMethod: "razorpay",
      prepaidDiscountPaise: 3000,
      shippingPaise: 4900,
      totalPaise: 41_800,
      razorpayPaymentId: paid.razorpay_payment_id,
    });
    // Told twice (the page again, then Razorpay's webhook): applied once.
    expect((await post(shop, linkPath(shop, order, "/pay-online/verify"), body)).status).toBe(200);
    const hook = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);
    const webhook = await shop.app.request("/api/payments/razorpay/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Razorpay-Signature": hook.signature },
      body: hook.body,
    });
    expect(webhook.status).toBe(200);
    const paidEvents = (await eventsOf(order.id)).filter((event) =>
      event.note?.startsWith("Paid online instead"),
    );
    expect(paidEvents).toHaveLength(1);
    expect((await post(shop, linkPath(shop, order, "/pay-online"))).body.error.code).toBe(
      "not_waiting_for_confirmation",
    );
  });

  it("refuses an order already confirmed for cash, and a forged payment", async () => {
    const order = await placeCod();
    const opened = (await post(shop, linkPath(shop, order, "/pay-online"))).body as RazorpayCheckout;
    const forged = await post(shop, linkPath(shop, order, "/pay-online/verify"), {
      razorpayPaymentId: "pay_forged000001",
      razorpayOrderId: opened.razorpayOrderId,
      razorpaySignature: "0".repeat(64),
    });
    expect(forged.status).toBe(400);
    expect((await post(shop, linkPath(shop, order, "/confirm"))).status).toBe(200);
    const refused = await post(shop, linkPath(shop, order, "/pay-online"));
    expect(refused).toMatchObject({ status: 409, body: { error: { code: "not_waiting_for_confirmation" } } });
    expect(await rowOf(order.id)).toMatchObject({
      status: "confirmed",
      paymentMethod: "cod",
      totalPaise: 44_800,
    });
  });
});

describe("a payment under way while the order changes (issue 40)", () => {
  const checkoutOf = async (order: { id: string; number: string }) =>
    (await post(shop, linkPath(shop, order, "/pay-online"))).body as RazorpayCheckout;
  const staffCall = (method: string, url: string, body: unknown = method === "GET" ? undefined : {}) =>
    shop.app.request(url, asUser(owner.cookie, { method, body }));
  const addMalt = (number: string) =>
    staffCall("PUT", `/api/admin/orders/${number}/items`, {
      lines: [
        { itemId: "badam-mix", kind: "product", quantity: 1 },
        { itemId: "abc-malt", kind: "product", quantity: 4 },
      ],
    });
  /** The switch opened this long ago: its payment window is over. */
  const ageSwitch = (orderId: string, minutes: number) =>
    shop.db
      .update(razorpayOrders)
      .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
      .where(eq(razorpayOrders.orderId, orderId));
  const payAndTell = async (order: { id: string; number: string }, checkout: RazorpayCheckout) => {
    const paid = fake.pay(checkout.razorpayOrderId);
    const verified = await post(shop, linkPath(shop, order, "/pay-online/verify"), {
      razorpayPaymentId: paid.razorpay_payment_id,
      razorpayOrderId: paid.razorpay_order_id,
      razorpaySignature: paid.razorpay_signature,
    });
    const hook = fake.webhook(checkout.razorpayOrderId, paid.razorpay_payment_id);
    const webhook = await shop.app.request("/api/payments/razorpay/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Razorpay-Signature": hook.signature },
      body: hook.body,
    });
    return { paid, verified, webhook };
  };
  const refundedOnce = async (orderId: string, paymentId: string, amountPaise: number) => {
    await vi.waitFor(
      () => expect(fake.refunds.filter((each) => each.paymentId === paymentId)).toHaveLength(1),
      { timeout: 10_000 },
    );
    expect(fake.refunds.find((each) => each.paymentId === paymentId)?.amount).toBe(amountPaise);
    await vi.waitFor(async () => expect((await orderMoney(shop.db, orderId)).unappliedPendingPaise).toBe(0), {
      timeout: 10_000,
    });
    expect((await orderMoney(shop.db, orderId)).paidOnlinePaise).toBe(0);
  };

  it("makes staff wait while the shopper pays, then takes the old payment and refunds it in full once the items changed", async () => {
    await setStock(shop.db, "abc-malt", 100);
    const order = await placeCod();
    const checkout = await checkoutOf(order);
    // While the shopper may still be paying, an edit or a confirmation by staff waits, in words staff act on.
    const edit = await addMalt(order.number);
    expect(edit.status).toBe(409);
    const refusal = (await edit.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe("shopper_paying_online");
    expect(refusal.error.message).toContain("The shopper is paying online");
    const confirm = await staffCall("POST", `/api/admin/cod-confirm/${order.number}/confirm`);
    expect(confirm.status).toBe(409);
    expect((await rowOf(order.id))?.totalPaise).toBe(44_800);
    const listed = (await (await staffCall("GET", "/api/admin/cod-confirm")).json()) as ToConfirmList;
    expect(listed.orders.find((row) => row.number === order.number)?.payingOnlineSince).toEqual(
      expect.any(String),
    );

    // Once its window is over, the edit closes the switch; the old amount paid later cannot be applied.
    await ageSwitch(order.id, 31);
    expect((await addMalt(order.number)).status).toBe(200);
    const edited = await rowOf(order.id);
    expect(edited).toMatchObject({ paymentMethod: "cod", status: "placed", paidAt: null });
    const { paid, verified, webhook } = await payAndTell(order, checkout);
    expect(verified.status).toBe(200);
    expect(webhook.status).toBe(200);
    expect(await rowOf(order.id)).toMatchObject({
      paymentMethod: "cod",
      status: "placed",
      paidAt: null,
      totalPaise: edited?.totalPaise,
    });
    await refundedOnce(order.id, paid.razorpay_payment_id, 41_800);

    // The shopper may pay online again, at the edited order's figures.
    const again = await checkoutOf(order);
    expect(again.razorpayOrderId).not.toBe(checkout.razorpayOrderId);
    expect(again.amountPaise).toBeGreaterThan(41_800);
  });

  it("refunds a payment made after the order was confirmed for cash: the courier collects, nothing is kept twice", async () => {
    const order = await placeCod();
    const checkout = await checkoutOf(order);
    expect((await post(shop, linkPath(shop, order, "/confirm"))).status).toBe(200);
    const { paid, verified, webhook } = await payAndTell(order, checkout);
    expect(verified.status).toBe(200);
    expect(webhook.status).toBe(200);
    expect(await rowOf(order.id)).toMatchObject({
      status: "confirmed",
      paymentMethod: "cod",
      paidAt: null,
      razorpayPaymentId: null,
    });
    await refundedOnce(order.id, paid.razorpay_payment_id, 41_800);
    const notes = (await eventsOf(order.id)).map((event) => event.note ?? "");
    expect(notes.some((note) => note.includes("refunded in full through Razorpay"))).toBe(true);
  });
});

describe("when Razorpay does not answer", () => {
  let down: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    // A port fetch never connects to (the "bad ports" list): the gateway is unreachable.
    down = await createTestApp({ ...fake.env, RAZORPAY_API_BASE: "http://127.0.0.1:9" });
  });
  afterAll(() => down?.close());

  it("answers 503 in the error shape and leaves the order as it was", async () => {
    const order = await placeCod(down);
    const answer = await post(down, linkPath(down, order, "/pay-online"));
    expect(answer).toMatchObject({ status: 503, body: { error: { code: "payment_unavailable" } } });
    const [row] = await down.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ status: "placed", paymentMethod: "cod", razorpayOrderId: null });
    expect(
      await down.db.select().from(codPaymentSwitches).where(eq(codPaymentSwitches.orderId, order.id)),
    ).toEqual([]);
  });
});
