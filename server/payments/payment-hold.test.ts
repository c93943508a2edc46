import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { createTestApp } from "../../tests/database.ts";
import { setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import {
  asUser,
  type Customer,
  placeOrderRequest,
  putInCart,
  signUpWithAddress,
  stockOf,
} from "../../tests/orders.ts";
import { cartItems, orderEvents, orders } from "../db/schema.ts";
import { expireUnpaidOrders } from "../orders/order-status.ts";

const { shop, fake } = setUpTestAppWithRazorpay();
let accounts = 0;

const shopper = () => signUpWithAddress(shop.app, `holder${++accounts}@example.in`);

async function place(who: Customer, paymentMethod: "razorpay" | "cod", key: string = randomUUID()) {
  const response = await placeOrderRequest(
    shop.app,
    who.cookie,
    { addressId: who.addressId, paymentMethod },
    key,
  );
  return { status: response.status, body: (await response.json()) as { order: OrderDetail } & ErrorBody };
}
type ErrorBody = { error: { code: string; message: string } };

const openCheckout = (who: Customer, number: string) =>
  shop.app.request(`/api/orders/${number}/payment`, asUser(who.cookie, { method: "POST" }));

const statusOf = async (number: string) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]?.status;

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

async function pendingOf(userId: string) {
  const [row] = await shop.db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, "awaiting_payment")));
  return row?.n;
}

describe("how long an unpaid online order waits", () => {
  it("lapses after 10 minutes when payment was never started, having held no stock", async () => {
    const who = await shopper();
    const before = await stockOf(shop.db, "wax-powder");
    await putInCart(shop.db, who.userId, [{ itemId: "wax-powder", quantity: 3 }]);
    const { status, body } = await place(who, "razorpay");
    expect(status).toBe(201);
    // Stock is taken when the payment is captured (docs/decisions/083): nothing waits on the shelf for it.
    expect(await stockOf(shop.db, "wax-powder")).toBe(before);

    await expireUnpaidOrders(shop.deps, minutesFromNow(9));
    expect(await statusOf(body.order.number)).toBe("awaiting_payment");
    await expireUnpaidOrders(shop.deps, minutesFromNow(11));
    expect(await statusOf(body.order.number)).toBe("cancelled");
    expect(await stockOf(shop.db, "wax-powder")).toBe(before);
    const events = await shop.db
      .select({ note: orderEvents.note, actor: orderEvents.actor })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.number, body.order.number));
    expect(events.at(-1)).toEqual({ actor: "system", note: "Payment not started within 10 minutes" });
  });

  it("stays held for the whole payment window once the shopper has opened Checkout", async () => {
    const who = await shopper();
    await putInCart(shop.db, who.userId, [{ itemId: "wax-powder" }]);
    const { body } = await place(who, "razorpay");
    expect((await openCheckout(who, body.order.number)).status).toBe(200);
    await expireUnpaidOrders(shop.deps, minutesFromNow(29));
    expect(await statusOf(body.order.number)).toBe("awaiting_payment");
    await expireUnpaidOrders(shop.deps, minutesFromNow(31));
    expect(await statusOf(body.order.number)).toBe("cancelled");
  });

  it("cannot be extended by opening Checkout once the first hold is over", async () => {
    const who = await shopper();
    const before = await stockOf(shop.db, "wax-powder");
    await putInCart(shop.db, who.userId, [{ itemId: "wax-powder", quantity: 2 }]);
    const { body } = await place(who, "razorpay");
    await shop.db
      .update(orders)
      .set({ createdAt: minutesFromNow(-11) })
      .where(eq(orders.number, body.order.number));
    const fakeOrdersBefore = fake.orders.size;
    const late = await openCheckout(who, body.order.number);
    expect(late.status).toBe(409);
    expect(((await late.json()) as ErrorBody).error).toEqual({
      code: "payment_window_over",
      message: "This order was not paid within 10 minutes, so it has been cancelled. Please place it again.",
    });
    expect(await statusOf(body.order.number)).toBe("cancelled");
    expect(await stockOf(shop.db, "wax-powder")).toBe(before);
    expect(fake.orders.size).toBe(fakeOrdersBefore);
  });

  it("follows PAYMENT_HOLD_MINUTES", async () => {
    const other = await createTestApp({ ...fake.env, PAYMENT_HOLD_MINUTES: "3" });
    try {
      const who = await signUpWithAddress(other.app, "quick@example.in");
      await putInCart(other.db, who.userId, [{ itemId: "wax-powder" }]);
      const placed = await placeOrderRequest(other.app, who.cookie, {
        addressId: who.addressId,
        paymentMethod: "razorpay",
      });
      expect(placed.status).toBe(201);
      expect(await expireUnpaidOrders(other.deps, minutesFromNow(2))).toBe(0);
      expect(await expireUnpaidOrders(other.deps, minutesFromNow(4))).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe("one unpaid online order per account", () => {
  it("refuses a second online order while one waits for payment, naming it; the cart and stock stay", async () => {
    const who = await shopper();
    await putInCart(shop.db, who.userId, [{ itemId: "kids-bath-powder" }]);
    const first = await place(who, "razorpay");
    expect(first.status).toBe(201);

    await putInCart(shop.db, who.userId, [{ itemId: "kids-bath-powder", quantity: 2 }]);
    const stock = await stockOf(shop.db, "kids-bath-powder");
    const second = await place(who, "razorpay");
    expect(second.status).toBe(409);
    expect(second.body.error).toEqual({
      code: "payment_pending",
      message: `Your order ${first.body.order.number} is still waiting for payment. Pay for it or cancel it in My Orders before placing another order paid online.`,
    });
    expect(await pendingOf(who.userId)).toBe(1);
    expect(await stockOf(shop.db, "kids-bath-powder")).toBe(stock);
    expect(await shop.db.select().from(cartItems).where(eq(cartItems.userId, who.userId))).toHaveLength(1);

    // Cancelling the waiting order, or paying on delivery, is always possible.
    const cancelled = await shop.app.request(
      `/api/orders/${first.body.order.number}/cancel`,
      asUser(who.cookie, { method: "POST", body: {} }),
    );
    expect(cancelled.status).toBe(200);
    expect((await place(who, "razorpay")).status).toBe(201);
    await putInCart(shop.db, who.userId, [{ itemId: "kids-bath-powder" }]);
    expect((await place(who, "cod")).status).toBe(201);
  });

  it("gives at most one waiting order from 10 placements at once, with or without one waiting already", async () => {
    const who = await shopper();
    await putInCart(shop.db, who.userId, [{ itemId: "hair-wash-powder" }]);
    const first = await Promise.all(Array.from({ length: 10 }, () => place(who, "razorpay")));
    expect(first.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await pendingOf(who.userId)).toBe(1);

    await putInCart(shop.db, who.userId, [{ itemId: "hair-wash-powder" }]);
    const again = await Promise.all(Array.from({ length: 10 }, () => place(who, "razorpay")));
    expect(again.map((r) => r.status)).toEqual(Array(10).fill(409));
    expect(new Set(again.map((r) => r.body.error.code))).toEqual(new Set(["payment_pending"]));
    expect(await pendingOf(who.userId)).toBe(1);
  });

  it("is held by the database itself, whatever path writes the order", async () => {
    const who = await shopper();
    await putInCart(shop.db, who.userId, [{ itemId: "hair-wash-powder" }]);
    const { body } = await place(who, "razorpay");
    const [row] = await shop.db.select().from(orders).where(eq(orders.number, body.order.number));
    if (!row) throw new Error("order not stored");
    await expect(
      shop.db
        .insert(orders)
        .values({ ...row, id: randomUUID(), number: `${row.number}-X`, razorpayOrderId: null }),
    ).rejects.toThrow();
  });
});
