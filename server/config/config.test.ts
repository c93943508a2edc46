import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../tests/database.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  shop = await createTestApp({
    SHOP_NAME: "Test Naturals",
    SHOP_PHONE: "+91 11111 22222",
    SHOP_EMAIL: "help@test-naturals.in",
  });
});
afterAll(() => shop.close());

describe("GET /api/config", () => {
  it("shows the shop's name, phone and e-mail from the environment, and nothing else", async () => {
    const response = await shop.app.request("/api/config");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      shopName: "Test Naturals",
      shopPhone: "+91 11111 22222",
      shopEmail: "help@test-naturals.in",
    });
  });

  it("falls back to the brand's own details when nothing is configured", async () => {
    const plain = await createTestApp();
    try {
      const body = await (await plain.app.request("/api/config")).json();
      expect(body).toEqual({
        shopName: plain.env.SHOP_NAME,
        shopPhone: plain.env.SHOP_PHONE,
        shopEmail: plain.env.SHOP_EMAIL,
      });
      expect(body.shopName).toBe("Prakriti Naturals");
    } finally {
      await plain.close();
    }
  });

  it("is read-only", async () => {
    const response = await shop.app.request("/api/config", { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
  });
});
