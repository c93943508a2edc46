import { describe, expect, it } from "vitest";
import { pickRelatedProducts, suggestProducts } from "./product-suggestions.ts";

const product = (slug: string, name: string, category: string, reviewCount: number) => ({
  slug,
  name,
  category,
  reviewCount,
});
const catalogue = [
  product("hair-growth-oil", "Hair Growth Oil", "haircare", 900),
  product("hair-growth-serum", "Hair Growth Serum", "haircare", 400),
  product("natural-hair-dye", "Natural Hair Dye", "haircare", 1800),
  product("coconut-oil", "Coconut Oil", "body", 300),
  product("bath-powder", "Bath Powder", "body", 700),
  product("face-glow-oil", "Face Glow Oil", "skincare", 1200),
  product("moringa-powder", "Moringa Powder", "nutrition", 200),
];

describe("pickRelatedProducts", () => {
  it("puts the same category first, most reviewed first, then fills up with the rest", () => {
    const related = pickRelatedProducts(catalogue, { slug: "hair-growth-oil", category: "haircare" });
    expect(related.map((p) => p.slug)).toEqual([
      "natural-hair-dye",
      "hair-growth-serum",
      "face-glow-oil",
      "bath-powder",
    ]);
  });

  it("never includes the product itself and stops at the count", () => {
    const related = pickRelatedProducts(catalogue, { slug: "bath-powder", category: "body" }, 2);
    expect(related.map((p) => p.slug)).toEqual(["coconut-oil", "natural-hair-dye"]);
  });

  it("returns fewer when the catalogue is small", () => {
    expect(
      pickRelatedProducts(catalogue.slice(0, 2), { slug: "hair-growth-oil", category: "x" }),
    ).toHaveLength(1);
  });
});

describe("suggestProducts", () => {
  it("ranks products by how many words of the slug their names contain", () => {
    expect(suggestProducts(catalogue, "hair-oil").map((p) => p.slug)).toEqual([
      "hair-growth-oil",
      "natural-hair-dye",
      "face-glow-oil",
      "hair-growth-serum",
    ]);
  });

  it("matches case-insensitively and ignores short words", () => {
    expect(suggestProducts(catalogue, "MORINGA-of-a").map((p) => p.slug)).toEqual(["moringa-powder"]);
  });

  it("suggests nothing for a slug with no matching words", () => {
    expect(suggestProducts(catalogue, "lipstick")).toEqual([]);
    expect(suggestProducts(catalogue, "--")).toEqual([]);
  });
});
