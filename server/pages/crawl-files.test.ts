import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../tests/database.ts";

describe("robots.txt", () => {
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  it("keeps a guest's order pages out: their address is all that guards them", async () => {
    const response = await shop.app.request("/robots.txt");
    expect(response.status).toBe(200);
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("Disallow: /guest-order/");
    expect(lines).toContain("Disallow: /orders");
  });
});
