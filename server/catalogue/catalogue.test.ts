import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Combo, Product, ProductPage } from "../../common/catalogue.ts";
import { searchProducts } from "../../common/catalogue-rules.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";

const shop = setUpTestApp();

/** The seeded 21 products and 129 more: past the 100 the shared catalogue was once read with. */
const TOTAL = 150;

beforeAll(async () => {
  await shop.db.execute(sql`
    insert into products (slug, name, description, category, subcategory, price_paise, rating, benefits, images, stock)
    select 'extra-herb-' || n, 'Extra Herb ' || n, 'A plain herbal powder.', 'body', 'Body Wash', 19900 + n,
           4.2, '["Gentle"]'::jsonb, '["neem-face-wash"]'::jsonb, 5
      from generate_series(1, ${TOTAL - 21}) as n`);
});

describe("the catalogue every page shares", () => {
  it("holds every product, the 101st and the 150th too, and the combos", async () => {
    const { status, body } = await callApi(shop.app, "GET", "/api/catalogue");
    expect(status).toBe(200);
    const { products, combos } = body as { products: Product[]; combos: Combo[] };
    expect(products).toHaveLength(TOTAL);
    expect(products.map((product) => product.slug)).toContain("extra-herb-129");
    expect(combos).toHaveLength(4);
    // The header's search runs over this list in the browser.
    expect(searchProducts(products, "Extra Herb 129").map((product) => product.slug)).toContain(
      "extra-herb-129",
    );
  });

  it("is paged in full by the grid", async () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 20; page++) {
      const { body } = await callApi(shop.app, "GET", `/api/products?page=${page}&pageSize=12`);
      const grid = body as ProductPage;
      expect(grid.total).toBe(TOTAL);
      for (const product of grid.items) seen.add(product.slug);
      if (grid.items.length < 12) break;
    }
    expect(seen.size).toBe(TOTAL);
  });

  it("is in the sitemap", async () => {
    const sitemap = await (await shop.app.request("/sitemap.xml")).text();
    expect(sitemap.match(/\/product\//g)).toHaveLength(TOTAL);
    expect(sitemap).toContain("/product/extra-herb-129<");
  });
});
