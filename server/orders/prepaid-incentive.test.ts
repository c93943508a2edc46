import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminCodRules } from "../../common/cod-rules.ts";
import type { CheckoutSummary, OrderDetail, RazorpayCheckout } from "../../common/orders.ts";
import type { PrepaidIncentive } from "../../common/prepaid-incentive.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi } from "../../tests/database.ts";
import { setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import {
  asUser,
  type Customer,
  placeOrderRequest,
  putInCart,
  signUpWithAddress,
} from "../../tests/orders.ts";
import { auditLog, orders } from "../db/schema.ts";

const { shop, fake } = setUpTestAppWithRazorpay();
let owner: TestAccount;
let staff: TestAccount;
let accounts = 0;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "prepaid-owner@example.in", "owner");
  staff = await signUpWithRole(shop, "prepaid-staff@example.in", "staff");
});

const customer = () => signUpWithAddress(shop.app, `prepaid${++accounts}@example.in`);

const setIncentive = (incentive: PrepaidIncentive, as: TestAccount = owner) =>
  callApi(shop.app, "PUT", "/api/admin/cod-rules/prepaid-incentive", { as, body: incentive });

/** The checkout summary once it shows this incentive: the owner's change reaches the cache through NOTIFY. */
async function checkoutWith(who: TestAccount, online: Partial<CheckoutSummary["onlinePricing"]>) {
  let summary: CheckoutSummary | undefined;
  await expect
    .poll(async () => {
      summary = (await callApi(shop.app, "GET", "/api/checkout", { as: who })).body as CheckoutSummary;
      return summary.onlinePricing;
    })
    .toMatchObject(online ?? {});
  return summary as CheckoutSummary;
}

async function place(who: Customer, paymentMethod: "cod" | "razorpay") {
  const response = await placeOrderRequest(shop.app, who.cookie, { addressId: who.addressId, paymentMethod });
  const body = (await response.json()) as { order: OrderDetail };
  expect(response.status).toBe(201);
  return body.order;
}

const rowOf = async (number: string) =>
  (await shop.db.select().from(orders).where(eq(orders.number, number)))[0];

describe("the owner's prepaid incentive", () => {
  it("is the owner's to change, checked strictly, and audited with the COD rules", async () => {
    expect((await setIncentive({ kind: "flat", amountPaise: 5000 }, staff)).status).toBe(403);
    const tooMuch = await setIncentive({ kind: "percent", percent: 90, capPaise: null });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.code).toBe("invalid_request");
    const stray = await callApi(shop.app, "PUT", "/api/admin/cod-rules/prepaid-incentive", {
      as: owner,
      body: { kind: "free_shipping", amountPaise: 100 },
    });
    expect(stray.status).toBe(400);

    const saved = await setIncentive({ kind: "percent", percent: 10, capPaise: 5000 });
    expect(saved).toMatchObject({ status: 200, body: { prepaidIncentive: { kind: "percent" } } });
    const read = await callApi(shop.app, "GET", "/api/admin/cod-rules", { as: staff });
    expect((read.body as AdminCodRules).prepaidIncentive).toEqual({
      kind: "percent",
      percent: 10,
      capPaise: 5000,
    });
    const audit = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "cod_rule"), eq(auditLog.entityId, "prepaid-incentive")));
    expect(audit.at(-1)).toMatchObject({
      action: "update",
      actorEmail: owner.email,
      before: { kind: "none" },
      after: { kind: "percent", percent: 10, capPaise: 5000 },
    });
  });

  it("takes a capped percentage off an order paid online: checkout, the order, its record and Razorpay agree", async () => {
    await setIncentive({ kind: "percent", percent: 10, capPaise: 5000 });
    const meera = await customer();
    await putInCart(shop.db, meera.userId, [{ itemId: "hair-conditioning-pack" }]);
    // ₹699: 10% is ₹70, held to the ₹50 cap.
    const summary = await checkoutWith(meera, { prepaid: { kind: "discount", amountPaise: 5000 } });
    expect(summary.pricing).toMatchObject({ prepaid: null, totalPaise: 69_900 });
    expect(summary.onlinePricing).toMatchObject({ shippingPaise: 0, totalPaise: 64_900 });
    expect(summary.payment.razorpay.offer).toBe("Save ₹50 when you pay online.");

    const order = await place(meera, "razorpay");
    expect(order).toMatchObject({ prepaid: { kind: "discount", amountPaise: 5000 }, totalPaise: 64_900 });
    expect(await rowOf(order.number)).toMatchObject({
      prepaidDiscountPaise: 5000,
      prepaidShippingWaivedPaise: 0,
      subtotalPaise: 69_900,
      totalPaise: 64_900,
    });
    const payment = await shop.app.request(
      `/api/orders/${order.number}/payment`,
      asUser(meera.cookie, { method: "POST" }),
    );
    const checkout = (await payment.json()) as RazorpayCheckout;
    expect(fake.orders.get(checkout.razorpayOrderId)).toMatchObject({ amount: 64_900 });
  });

  it("takes a flat amount after the code's discount, and charges shipping as before", async () => {
    await setIncentive({ kind: "flat", amountPaise: 3000 });
    const ravi = await customer();
    await putInCart(shop.db, ravi.userId, [{ itemId: "badam-mix" }]);
    await checkoutWith(ravi, { prepaid: { kind: "discount", amountPaise: 3000 } });
    const order = await place(ravi, "razorpay");
    expect(await rowOf(order.number)).toMatchObject({
      subtotalPaise: 39_900,
      prepaidDiscountPaise: 3000,
      shippingPaise: 4900,
      totalPaise: 39_900 - 3000 + 4900,
    });
  });

  it("waives the shipping fee for free shipping, and keeps what it waived", async () => {
    await setIncentive({ kind: "free_shipping" });
    const asha = await customer();
    await putInCart(shop.db, asha.userId, [{ itemId: "badam-mix" }]);
    const summary = await checkoutWith(asha, { prepaid: { kind: "free_shipping", amountPaise: 4900 } });
    expect(summary.pricing).toMatchObject({ shippingPaise: 4900, totalPaise: 44_800 });
    expect(summary.payment.razorpay.offer).toBe("Free shipping when you pay online: save ₹49.");
    const order = await place(asha, "razorpay");
    expect(order).toMatchObject({ shippingPaise: 0, totalPaise: 39_900, prepaid: { kind: "free_shipping" } });
    expect(await rowOf(order.number)).toMatchObject({
      prepaidShippingWaivedPaise: 4900,
      prepaidDiscountPaise: 0,
    });
  });

  it("gives nothing to an order paid in cash", async () => {
    await setIncentive({ kind: "flat", amountPaise: 3000 });
    const dev = await customer();
    await putInCart(shop.db, dev.userId, [{ itemId: "badam-mix" }]);
    await checkoutWith(dev, { prepaid: { kind: "discount", amountPaise: 3000 } });
    const order = await place(dev, "cod");
    expect(order).toMatchObject({ prepaid: null, totalPaise: 44_800 });
    expect(await rowOf(order.number)).toMatchObject({
      prepaidDiscountPaise: 0,
      prepaidShippingWaivedPaise: 0,
    });
  });

  it("is priced again when the order is placed: an incentive withdrawn after checkout showed it is not given", async () => {
    await setIncentive({ kind: "flat", amountPaise: 3000 });
    const kiran = await customer();
    await putInCart(shop.db, kiran.userId, [{ itemId: "badam-mix" }]);
    await checkoutWith(kiran, { prepaid: { kind: "discount", amountPaise: 3000 } });
    await setIncentive({ kind: "none" });
    const order = await place(kiran, "razorpay");
    expect(order).toMatchObject({ prepaid: null, totalPaise: 44_800 });
  });
});
