import { describe, expect, it } from "vitest";
import type { Product, ProductPage } from "../../common/catalogue.ts";
import { setUpTestApp } from "../../tests/database.ts";

const shop = setUpTestApp();

const getJson = async (path: string) => {
  const response = await shop.app.request(path);
  return { status: response.status, body: await response.json() };
};

describe("GET /api/products", () => {
  it("lists the first 8 of the 21 products, name ascending", async () => {
    const { status, body } = await getJson("/api/products");
    expect(status).toBe(200);
    const page = body as ProductPage;
    expect(page.total).toBe(21);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(8);
    expect(page.items.map((p) => p.name)).toEqual([
      "ABC Malt",
      "Badam Mix",
      "Bath Powder",
      "Beetroot Face Pack",
      "Chilli Powder",
      "Coconut Oil",
      "Curry Leaves Powder",
      "Face Glow Oil",
    ]);
  });

  it("stores the spec's prices in paise, with the two original prices", async () => {
    const { body } = await getJson("/api/products?pageSize=100");
    const byName = new Map((body as ProductPage).items.map((p) => [p.name, p]));
    expect(byName.get("Badam Mix")).toMatchObject({ pricePaise: 39900, originalPricePaise: 49900 });
    expect(byName.get("Face Glow Oil")).toMatchObject({ pricePaise: 49900, originalPricePaise: 59900 });
    expect(byName.get("Hair Wash Powder")).toMatchObject({ pricePaise: 67500, originalPricePaise: null });
    expect(byName.get("Moringa Powder")?.pricePaise).toBe(25000);
  });

  it("never reveals stock levels, only whether an item is in stock", async () => {
    const { body } = await getJson("/api/products?pageSize=1");
    const [first] = (body as ProductPage).items;
    expect(first).not.toHaveProperty("stock");
    expect(first?.inStock).toBe(true);
  });

  it("searches, filters by category, subcategory and rupee range, sorts and pages", async () => {
    const search = (await getJson("/api/products?q=%20POWDER%20&sort=price-high&pageSize=3"))
      .body as ProductPage;
    expect(search.total).toBe(8);
    expect(search.items.map((p) => p.pricePaise)).toEqual([69900, 67500, 59900]);

    const nutrition = (await getJson("/api/products?category=nutrition&maxPrice=300")).body as ProductPage;
    expect(nutrition.items.map((p) => p.name)).toEqual(["Curry Leaves Powder", "Moringa Powder"]);

    const oils = (await getJson("/api/products?subcategory=Hair%20Oil")).body as ProductPage;
    expect(oils.items.every((p) => p.subcategory === "Hair Oil")).toBe(true);

    const page3 = (await getJson("/api/products?page=3")).body as ProductPage;
    expect(page3.items).toHaveLength(5);
  });

  it("answers a blank search with no results, as the spec's search does", async () => {
    const { body } = await getJson("/api/products?q=%20%20");
    expect((body as ProductPage).total).toBe(0);
  });

  it.each([
    ["sort=cheapest", "sort"],
    ["page=0", "page"],
    ["page=two", "page"],
    ["pageSize=1000", "pageSize"],
    ["minPrice=-5", "minPrice"],
    ["minPrice=600&maxPrice=100", "minPrice"],
    ["category=toys", "category"],
    ["subcategory=Lipstick", "subcategory"],
    ["colour=red", "colour"],
  ])("rejects %s with a 400 naming %s", async (query, field) => {
    const { status, body } = await getJson(`/api/products?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain(field);
    expect(body.error.fields).toHaveProperty(field);
  });
});

describe("GET /api/products/:slug", () => {
  it("returns one product with its images and three benefits", async () => {
    const { status, body } = await getJson("/api/products/face-glow-oil");
    expect(status).toBe(200);
    const product = body as Product;
    expect(product.name).toBe("Face Glow Oil");
    expect(product.benefits).toHaveLength(3);
    expect(product.images.length).toBeGreaterThanOrEqual(1);
    expect(product.image).toEqual(product.images[0]);
    expect(product.image.small).toMatch(/^\/images\/catalogue\/.+-400\.webp$/);
  });

  it("answers an unknown product with a 404 in the error shape", async () => {
    const { status, body } = await getJson("/api/products/lipstick");
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });

  it("answers a malformed slug with a 400", async () => {
    const { status, body } = await getJson("/api/products/NOT%20a%20slug");
    expect(status).toBe(400);
    expect(body.error.fields).toHaveProperty("slug");
  });
});
