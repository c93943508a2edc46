import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../tests/accounts.ts";
import { callApi, setUpTestApp } from "../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, TEST_ADDRESS } from "../tests/orders.ts";

/**
 * What a hostile client's generated bad input turned into 500s: each must now be a 400 naming the field
 * (or a 404 for a path that names nothing), in the API's error shape.
 */
const shop = setUpTestApp();
let customer: TestAccount;
let admin: TestAccount;
let orderNumber: string;

beforeAll(async () => {
  customer = await signUpViaApp(shop.app, "meera@example.in");
  admin = await signUpWithRole(shop, "staff@example.in", "owner");
  await putInCart(shop.db, customer.userId, [{ itemId: "coconut-oil" }]);
  const addressId = await saveAddress(shop.app, customer.cookie);
  const placed = await placeOrderRequest(shop.app, customer.cookie, { addressId, paymentMethod: "cod" });
  orderNumber = ((await placed.json()) as { order: { number: string } }).order.number;
});

const NUL = "\u0000";

type Case = {
  what: string;
  as: () => TestAccount | undefined;
  method: string;
  path: () => string;
  body?: unknown;
  /** The field the 400 names; unset where a 404 is as right. */
  field?: string;
};

const asCustomer = () => customer;
const asAdmin = () => admin;
const signedOut = () => undefined;

const cases: Case[] = [
  {
    what: "a NUL in an address's name",
    as: asCustomer,
    method: "POST",
    path: () => "/api/addresses",
    body: { ...TEST_ADDRESS, name: `Meera${NUL}` },
    field: "name",
  },
  {
    what: "a control character in an address line",
    as: asCustomer,
    method: "POST",
    path: () => "/api/addresses",
    body: { ...TEST_ADDRESS, line2: "Indiranagar\u0007" },
    field: "line2",
  },
  {
    what: "a NUL in a discount code applied signed in",
    as: asCustomer,
    method: "POST",
    path: () => "/api/discounts/apply",
    body: { code: `NEEM${NUL}` },
    field: "code",
  },
  {
    what: "a NUL in a discount code applied signed out",
    as: signedOut,
    method: "POST",
    path: () => "/api/discounts/apply",
    body: { code: `NEEM${NUL}`, items: [] },
    field: "code",
  },
  {
    what: "a NUL in the code a merge brings",
    as: asCustomer,
    method: "POST",
    path: () => "/api/cart/merge",
    body: { mergeId: randomUUID(), items: [], appliedCode: `A${NUL}` },
    field: "appliedCode",
  },
  {
    what: "a NUL in the used codes a merge brings",
    as: asCustomer,
    method: "POST",
    path: () => "/api/cart/merge",
    body: { mergeId: randomUUID(), items: [], usedCodes: [`A${NUL}`] },
    field: "usedCodes.0",
  },
  {
    what: "a NUL in a quote's discount code",
    as: signedOut,
    method: "POST",
    path: () => "/api/cart/quote",
    body: { items: [], discountCode: `A${NUL}` },
    field: "discountCode",
  },
  {
    what: "a NUL in the admin order search",
    as: asAdmin,
    method: "GET",
    path: () => "/api/admin/orders?q=%00",
    field: "q",
  },
  {
    what: "a NUL in the admin order export's search",
    as: asAdmin,
    method: "GET",
    path: () => "/api/admin/orders/export.csv?q=meera%00",
    field: "q",
  },
  {
    what: "an impossible date in the admin order filter",
    as: asAdmin,
    method: "GET",
    path: () => "/api/admin/orders?from=9999-99-99",
    field: "from",
  },
  {
    what: "a date that does not exist (30 February)",
    as: asAdmin,
    method: "GET",
    path: () => "/api/admin/orders/export.csv?to=2026-02-30",
    field: "to",
  },
  {
    what: "a NUL in the addressId of an order",
    as: asCustomer,
    method: "POST",
    path: () => "/api/orders",
    body: { addressId: `a${NUL}b`, paymentMethod: "cod" },
    field: "addressId",
  },
  {
    what: "a NUL in an address id in the path",
    as: asCustomer,
    method: "DELETE",
    path: () => "/api/addresses/a%00b",
  },
  {
    what: "a NUL in a session id in the path",
    as: asCustomer,
    method: "DELETE",
    path: () => "/api/account/sessions/a%00b",
  },
  {
    what: "a NUL in a stock item id in the path",
    as: asAdmin,
    method: "PUT",
    path: () => "/api/admin/stock/product/a%00b",
    body: { stock: 1, previousStock: 1 },
  },
  {
    what: "a previous stock beyond what PostgreSQL's integer holds",
    as: asAdmin,
    method: "PUT",
    path: () => "/api/admin/stock/product/coconut-oil",
    body: { stock: 1, previousStock: 9007199254740991 },
    field: "previousStock",
  },
  {
    what: "a NUL in a cancellation reason",
    as: asCustomer,
    method: "POST",
    path: () => `/api/orders/${orderNumber}/return`,
    body: { reason: `It arrived broken${NUL}` },
    field: "reason",
  },
  {
    what: "a NUL in the admin's status note",
    as: asAdmin,
    method: "POST",
    path: () => `/api/admin/orders/${orderNumber}/status`,
    body: { status: "shipped", courier: `Blue${NUL}Dart`, trackingNumber: "BD1", note: "x" },
    field: "courier",
  },
];

describe("crafted input is refused with 400 naming the field, never a 500", () => {
  it.each(cases)("$what", async ({ as, method, path, body, field }) => {
    const account = as();
    const answer = await callApi(shop.app, method, path(), { ...(account ? { as: account } : {}), body });
    expect(answer.body).toEqual({ error: expect.objectContaining({ code: expect.any(String) }) });
    if (field) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.fields).toHaveProperty([field]);
    } else {
      expect([400, 404]).toContain(answer.status);
    }
  });

  it("holds Better Auth's bodies to the same text rule: update-user with a null or NUL name, sign-up", async () => {
    for (const body of [{ name: null }, { name: `Meera${NUL}` }, { name: "Meera", image: `x${NUL}` }]) {
      const answer = await callApi(shop.app, "POST", "/api/auth/update-user", { as: customer, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.error.fields ?? {}).length).toBeGreaterThan(0);
    }
    const signUp = await callApi(shop.app, "POST", "/api/auth/sign-up/email", {
      body: { name: `Anita${NUL}`, email: "anita@example.in", password: "neem-and-tulsi-2026" },
    });
    expect(signUp.status).toBe(400);
    expect(signUp.body.error.fields).toHaveProperty(["name"]);
    const fine = await callApi(shop.app, "POST", "/api/auth/update-user", {
      as: customer,
      body: { name: "Meera" },
    });
    expect(fine.status).toBe(200);
  });

  it("answers Better Auth's empty refusals in the error shape too", async () => {
    for (const path of ["/api/auth/reset-password/", "/api/auth/callback/", "/api/auth/no-such-endpoint"]) {
      const answer = await callApi(shop.app, "GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code).toBe("not_found");
    }
  });

  it("keeps newlines in multi-line text and refuses them in a one-line field", async () => {
    const multiLine = await callApi(shop.app, "POST", `/api/orders/${orderNumber}/return`, {
      as: customer,
      body: { reason: "The seal was broken.\r\n\tThe bottle leaked." },
    });
    // The order is not delivered yet, so the lifecycle refuses it; the text itself passed.
    expect(multiLine.status).not.toBe(400);
    const oneLine = await callApi(shop.app, "POST", "/api/addresses", {
      as: customer,
      body: { ...TEST_ADDRESS, city: "Bengaluru\nMysuru" },
    });
    expect(oneLine.status).toBe(400);
    expect(oneLine.body.error.fields).toHaveProperty(["city"]);
  });
});
