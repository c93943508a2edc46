import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, type TestAccount } from "../tests/accounts.ts";
import { callApi, createTestApp, setUpTestApp, TEST_ORIGIN } from "../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress } from "../tests/orders.ts";

const shop = setUpTestApp();
let customer: TestAccount;
let orderNumber: string;

beforeAll(async () => {
  customer = await signUpViaApp(shop.app, "meera@example.in");
  await putInCart(shop.db, customer.userId, [{ itemId: "coconut-oil" }]);
  const addressId = await saveAddress(shop.app, customer.cookie);
  const placed = await placeOrderRequest(shop.app, customer.cookie, { addressId, paymentMethod: "cod" });
  orderNumber = ((await placed.json()) as { order: { number: string } }).order.number;
});

/** A request as a page on another site (or no page at all) can make it. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  return shop.app.request(path, { method, headers: { Cookie: customer.cookie, ...headers }, body });
}

async function orderStatus() {
  const { body } = await callApi(shop.app, "GET", `/api/orders/${orderNumber}`, { as: customer });
  return body.order.status as string;
}

describe("state-changing API requests come only from the shop's own pages, as JSON", () => {
  it("refuses a form posted from a sibling subdomain to cancel an order (text/plain, no body)", async () => {
    const response = await raw("POST", `/api/orders/${orderNumber}/cancel`, {
      Origin: "https://evil.shop.example",
      "Content-Type": "text/plain",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { code: "cross_site_request", message: "This request must come from the shop's own pages." },
    });
    expect(await orderStatus()).not.toBe("cancelled");
  });

  it("refuses a same-site foreign origin even with a JSON body", async () => {
    const shopOnSubdomain = await createTestApp({ PUBLIC_URL: "https://shop.example" });
    try {
      const response = await shopOnSubdomain.app.request("/api/cart/quote", {
        method: "POST",
        headers: { Origin: "https://evil.shop.example", "Content-Type": "application/json" },
        body: JSON.stringify({ items: [] }),
      });
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe("cross_site_request");
      const own = await shopOnSubdomain.app.request("/api/cart/quote", {
        method: "POST",
        headers: { Origin: "https://shop.example", "Content-Type": "application/json" },
        body: JSON.stringify({ items: [] }),
      });
      expect(own.status).toBe(200);
    } finally {
      await shopOnSubdomain.close();
    }
  });

  it("refuses a request without an Origin, unless the browser says it is same-origin", async () => {
    const body = JSON.stringify({ reason: "Ordered twice" });
    const json = { "Content-Type": "application/json" };
    const bare = await raw("POST", `/api/orders/${orderNumber}/cancel`, json, body);
    expect(bare.status).toBe(403);
    const crossSite = await raw("DELETE", "/api/cart/items", { ...json, "Sec-Fetch-Site": "same-site" });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await raw("DELETE", "/api/cart/items", { ...json, "Sec-Fetch-Site": "same-origin" });
    expect(sameOrigin.status).toBe(200);
    // The string "null" (a sandboxed frame, a file) is not the shop.
    const opaque = await raw("DELETE", "/api/cart/items", { ...json, Origin: "null" });
    expect(opaque.status).toBe(403);
  });

  it("answers 415 to a request from the shop that is not JSON, with or without a body", async () => {
    for (const type of [
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]) {
      const response = await raw("DELETE", "/api/cart/items", {
        Origin: TEST_ORIGIN,
        ...(type ? { "Content-Type": type } : {}),
      });
      expect(response.status, String(type)).toBe(415);
      expect((await response.json()).error.code).toBe("unsupported_media_type");
    }
    const withCharset = await raw("DELETE", "/api/cart/items", {
      Origin: TEST_ORIGIN,
      "Content-Type": "application/json; charset=utf-8",
    });
    expect(withCharset.status).toBe(200);
  });

  it("leaves reading to GET, Better Auth's own checks to /api/auth, and the webhook to its signature", async () => {
    const read = await raw("GET", "/api/cart", { Origin: "https://evil.shop.example" });
    expect(read.status).toBe(200);
    // Better Auth refuses a foreign origin itself, in its own shape.
    const signIn = await shop.app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { Origin: "https://evil.shop.example", "Content-Type": "application/json" },
      body: JSON.stringify({ email: "meera@example.in", password: "whatever-it-is" }),
    });
    expect(signIn.status).toBe(403);
    const webhook = await shop.app.request("/api/payments/razorpay/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    // Razorpay is not configured in this app: the webhook itself answers, not the origin rule.
    expect(webhook.status).toBe(503);
  });

  it("still cancels the order when the shop's own page asks", async () => {
    const { status, body } = await callApi(shop.app, "POST", `/api/orders/${orderNumber}/cancel`, {
      as: customer,
      body: {},
    });
    expect(status).toBe(200);
    expect(body.order.status).toBe("cancelled");
  });
});
