import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminDiscountCode } from "../../common/schemas/discount-codes.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import {
  placeOrderRequest,
  putInCart,
  setStock,
  signUpWithAddress,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { auditLog, discountCodes, discountUses, guestDiscountUses, orders } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let shoppers = 0;
let guests = 0;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "uses-owner@example.in", "owner");
  await setStock(shop.db, "bath-powder", 1000);
});

const api = apiCaller(shop, () => owner);

const createCode = (code: string, extra: Record<string, unknown> = {}) =>
  api("POST", "/admin/discount-codes", { code, description: `${code} offer`, percent: 10, ...extra });

const TWICE = "This code can be used 2 times per customer, and you have used it 2 times";
const items = [{ id: "bath-powder", kind: "product", quantity: 1 }];

/** A guest's details: a fresh e-mail and mobile each, unless given. */
function guest(overrides: { email?: string; phone?: string } = {}) {
  guests += 1;
  return {
    email: overrides.email ?? `per-customer-guest${guests}@example.in`,
    address: {
      ...TEST_ADDRESS,
      phone: overrides.phone ?? `9${String(700_000_000 + guests).padStart(9, "0")}`,
    },
  };
}

async function placeAsGuest(body: Record<string, unknown>) {
  const response = await shop.app.request(
    "/api/guest-orders",
    jsonRequest({ method: "POST", body, headers: { "Idempotency-Key": randomUUID() } }),
  );
  const answer = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, error: answer.error };
}

const shopper = () => signUpWithAddress(shop.app, `per-customer-${++shoppers}@example.in`);

async function applyAndOrder(account: Awaited<ReturnType<typeof shopper>>, code: string) {
  await putInCart(shop.db, account.userId, [{ itemId: "bath-powder" }]);
  const applied = await api("POST", "/discounts/apply", { code }, account);
  if (applied.status !== 200) return { stage: "apply", status: applied.status, error: applied.body.error };
  const response = await placeOrderRequest(shop.app, account.cookie, {
    addressId: account.addressId,
    paymentMethod: "cod",
  });
  return { stage: "order", status: response.status, error: (await response.json()).error };
}

const ordersWith = async (code: string) =>
  (await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.discountCode, code))).length;

describe("uses per customer in the admin", () => {
  it("is 1 by default, as the spec's codes; a number of 1 or more or none (no limit) is kept", async () => {
    const byDefault = await createCode("ONCEONLY");
    expect(byDefault.status).toBe(201);
    expect((byDefault.body as AdminDiscountCode).usesPerCustomer).toBe(1);
    expect((await createCode("THRICE", { usesPerCustomer: 3 })).body.usesPerCustomer).toBe(3);
    expect((await createCode("ALWAYS", { usesPerCustomer: null })).body.usesPerCustomer).toBeNull();
    const [seeded] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "GLOW20"));
    expect(seeded?.usesPerCustomer).toBe(1);
  });

  it("refuses 0, a fraction or text with a 400 naming the field, and writes nothing", async () => {
    for (const usesPerCustomer of [0, 1.5, "two", -1, 5000]) {
      const created = await createCode("NOPE", { usesPerCustomer });
      expect(created.status, String(usesPerCustomer)).toBe(400);
      expect(created.body.error.fields).toHaveProperty("usesPerCustomer");
      const changed = await api("PATCH", "/admin/discount-codes/THRICE", { usesPerCustomer });
      expect(changed.status).toBe(400);
      expect(changed.body.error.fields).toHaveProperty("usesPerCustomer");
    }
    expect(await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "NOPE"))).toEqual([]);
    expect((await api("GET", "/admin/discount-codes/THRICE")).body.usesPerCustomer).toBe(3);
  });

  it("is changed by the owner and the change is in the audit log, before and after", async () => {
    const changed = await api("PATCH", "/admin/discount-codes/THRICE", { usesPerCustomer: null });
    expect(changed.status).toBe(200);
    expect(changed.body.usesPerCustomer).toBeNull();
    const entries = await shop.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityType, "discount_code"),
          eq(auditLog.entityId, "THRICE"),
          eq(auditLog.action, "update"),
        ),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      before: { usesPerCustomer: 3 },
      after: { usesPerCustomer: null },
    });
  });
});

describe("an account's uses", () => {
  it("a code of 2 per customer gives an account 2 orders, then the count is the refusal", async () => {
    await createCode("TWICEACC", { usesPerCustomer: 2 });
    const account = await shopper();
    expect(await applyAndOrder(account, "twiceacc")).toMatchObject({ stage: "order", status: 201 });
    expect(await applyAndOrder(account, "TWICEACC")).toMatchObject({ stage: "order", status: 201 });
    const third = await applyAndOrder(account, "TWICEACC");
    expect(third).toMatchObject({ stage: "apply", status: 409 });
    expect(third.error).toEqual({ code: "discount_already_used", message: TWICE });
    expect(await ordersWith("TWICEACC")).toBe(2);
  });

  it("a code of 1 per customer keeps the spec's words, even after it was removed from the cart", async () => {
    const account = await shopper();
    await putInCart(shop.db, account.userId, [{ itemId: "bath-powder" }]);
    expect((await api("POST", "/discounts/apply", { code: "ONCEONLY" }, account)).status).toBe(200);
    expect((await api("DELETE", "/discounts/applied", undefined, account)).status).toBe(200);
    const again = await api("POST", "/discounts/apply", { code: "ONCEONLY" }, account);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This discount code has already been used");
  });

  it("6 applications at once of a code of 2 per customer: exactly 2 are taken", async () => {
    await createCode("TWICERUSH", { usesPerCustomer: 2 });
    const account = await shopper();
    await putInCart(shop.db, account.userId, [{ itemId: "bath-powder" }]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api("POST", "/discounts/apply", { code: "TWICERUSH" }, account)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(4);
    for (const answer of refused)
      expect(answer.body.error).toEqual({ code: "discount_already_used", message: TWICE });
    const uses = await shop.db
      .select({ useNumber: discountUses.useNumber })
      .from(discountUses)
      .where(and(eq(discountUses.userId, account.userId), eq(discountUses.code, "TWICERUSH")));
    expect(uses.map((use) => use.useNumber).sort()).toEqual([1, 2]);
  });

  it("a code with no limit per customer is applied and ordered again and again", async () => {
    const account = await shopper();
    for (let i = 0; i < 3; i++) {
      expect(await applyAndOrder(account, "ALWAYS")).toMatchObject({ stage: "order", status: 201 });
    }
  });
});

describe("a guest's uses, by e-mail and by mobile", () => {
  it("one guest placing 6 orders at once with a code of 2 per customer gets exactly 2 with it", async () => {
    await createCode("TWICEGUEST", { usesPerCustomer: 2 });
    const same = guest();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        placeAsGuest({ ...same, items, discountCode: "twiceguest", paymentMethod: "cod" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.error?.message).toContain(TWICE);
    }
    expect(await ordersWith("TWICEGUEST")).toBe(2);
    const uses = await shop.db
      .select()
      .from(guestDiscountUses)
      .where(eq(guestDiscountUses.code, "TWICEGUEST"));
    expect(uses).toHaveLength(4);
    const [code] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "TWICEGUEST"));
    expect(code?.timesUsed).toBe(2);
  }, 60_000);

  it("counts the e-mail across mobiles and the mobile across e-mails", async () => {
    await createCode("TWICEMIX", { usesPerCustomer: 2 });
    const order = (details: ReturnType<typeof guest>) =>
      placeAsGuest({ ...details, items, discountCode: "TWICEMIX", paymentMethod: "cod" });
    const email = "mixing@example.in";
    expect((await order(guest({ email }))).status).toBe(201);
    expect((await order(guest({ email }))).status).toBe(201);
    const third = await order(guest({ email }));
    expect(third.status).toBe(409);
    expect(third.error?.message).toContain(TWICE);

    const phone = "9000011111";
    expect((await order(guest({ phone }))).status).toBe(201);
    expect((await order(guest({ phone }))).status).toBe(201);
    expect((await order(guest({ phone }))).status).toBe(409);
    expect(await ordersWith("TWICEMIX")).toBe(4);
  });

  it("the spec's code once per customer stays once: a second guest order with the same mobile is refused", async () => {
    const phone = "9000022222";
    const first = await placeAsGuest({
      ...guest({ phone }),
      items,
      discountCode: "GLOW20",
      paymentMethod: "cod",
    });
    expect(first.status).toBe(201);
    const second = await placeAsGuest({
      ...guest({ phone }),
      items,
      discountCode: "GLOW20",
      paymentMethod: "cod",
    });
    expect(second.status).toBe(409);
    expect(second.error?.message).toContain("This discount code has already been used");
  });
});
