import { describe, expect, it } from "vitest";
import type { Combo } from "../../common/catalogue.ts";
import { setUpTestApp } from "../../tests/database.ts";

const shop = setUpTestApp();

describe("combos", () => {
  it("lists the four bundles with the spec's prices and savings", async () => {
    const response = await shop.app.request("/api/combos");
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: Combo[] };
    const summary = Object.fromEntries(
      items.map((c) => [c.id, [c.originalPricePaise, c.salePricePaise, c.savingsPaise, c.products.length]]),
    );
    expect(summary).toEqual({
      "skincare-combo": [149700, 119900, 29800, 3],
      "haircare-combo": [162400, 129900, 32500, 3],
      "nutrition-combo": [115000, 94900, 20100, 3],
      "body-combo": [164900, 139900, 25000, 3],
    });
  });

  it("names the spec's products in each combo", async () => {
    const response = await shop.app.request("/api/combos/skincare-combo");
    const combo = (await response.json()) as Combo;
    expect(combo.products.map((p) => p.name)).toEqual([
      "Face Glow Oil",
      "Face Wash Powder",
      "Skin Brightening Pack",
    ]);
    expect(combo.badge).toBeTruthy();
    expect(combo.benefits).toHaveLength(3);
  });

  it("answers an unknown combo with a 404", async () => {
    const response = await shop.app.request("/api/combos/party-combo");
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
  });
});
