import { describe, expect, it } from "vitest";
import { products } from "../server/db/seed/catalogue.ts";
import {
  filterProducts,
  matchesSearch,
  pageWindow,
  paginate,
  pickBestSellers,
  priceBounds,
  queryCatalogue,
  searchDropdown,
  searchProducts,
  sortProducts,
} from "./catalogue-rules.ts";
import { searchByWords } from "./search-words.ts";

const item = (name: string, rupees: number, extra: Partial<(typeof products)[number]> = {}) => ({
  name,
  pricePaise: rupees * 100,
  category: "haircare",
  subcategory: "Hair Oil",
  badge: null as string | null,
  rating: 4,
  reviewCount: 10,
  ...extra,
});

describe("search", () => {
  it("matches a trimmed, case-insensitive substring of the name", () => {
    expect(matchesSearch("Hair Growth Oil", "  growth ")).toBe(true);
    expect(matchesSearch("Hair Growth Oil", "OIL")).toBe(true);
    expect(matchesSearch("Hair Growth Oil", "serum")).toBe(false);
  });

  it("gives no results for empty or blank text", () => {
    expect(matchesSearch("Hair Growth Oil", "")).toBe(false);
    expect(matchesSearch("Hair Growth Oil", "   ")).toBe(false);
  });

  it("answers a query the name's substring answers exactly as before, in the same order", () => {
    for (const query of ["oil", "hair", " ER ", "growth oil", "Powder", "a"]) {
      const before = products.filter((product) =>
        product.name.toLowerCase().includes(query.trim().toLowerCase()),
      );
      expect(before.length).toBeGreaterThan(0);
      expect(searchProducts(products, query, searchByWords)).toEqual(before);
    }
  });

  it("else finds every typed word at the start of a word of the name, category or description, in any order", () => {
    const names = (query: string) =>
      searchProducts(products, query, searchByWords).map((product) => product.name);
    // Both in the name come first, then the catalogue's order.
    expect(names("hair oil")).toEqual([
      "Hair Growth Oil",
      "Hair Growth Serum",
      "Hair Wash Powder",
      "Coconut Oil",
    ]);
    expect(names("OIL  hair")).toEqual(names("hair oil"));
    expect(names("growth hair").slice(0, 2)).toEqual(["Hair Growth Oil", "Hair Growth Serum"]);
    expect(names("henna")).toContain("Natural Hair Dye");
    // A word must begin a word: "il" is inside "oil" but begins none.
    expect(names("hair il")).toEqual([]);
    expect(names("lipstick")).toEqual([]);
    expect(names(" - ")).toEqual([]);
    // Without the word search loaded (the search box before its first keystroke's import), the substring alone.
    expect(searchProducts(products, "hair oil")).toEqual([]);
  });

  it("shows at most 8 in the dropdown and counts them all", () => {
    const many = Array.from({ length: 11 }, (_, index) => item(`Powder ${index}`, 100));
    const { shown, total } = searchDropdown(many, "powder");
    expect(shown).toHaveLength(8);
    expect(total).toBe(11);
  });
});

describe("filter and sort", () => {
  const list = [
    item("B", 450),
    item("A", 499, { category: "skincare", subcategory: "Face Pack" }),
    item("C", 250),
  ];

  it("filters by category, subcategory and an inclusive rupee range", () => {
    expect(filterProducts(list, { category: "skincare" }).map((p) => p.name)).toEqual(["A"]);
    expect(filterProducts(list, { subcategory: "Hair Oil" }).map((p) => p.name)).toEqual(["B", "C"]);
    expect(filterProducts(list, { minPrice: 250, maxPrice: 450 }).map((p) => p.name)).toEqual(["B", "C"]);
  });

  it("sorts by each option, name ascending by default, without touching the input", () => {
    expect(sortProducts(list).map((p) => p.name)).toEqual(["A", "B", "C"]);
    expect(sortProducts(list, "name-desc").map((p) => p.name)).toEqual(["C", "B", "A"]);
    expect(sortProducts(list, "price-low").map((p) => p.name)).toEqual(["C", "B", "A"]);
    expect(sortProducts(list, "price-high").map((p) => p.name)).toEqual(["A", "B", "C"]);
    expect(list.map((p) => p.name)).toEqual(["B", "A", "C"]);
  });

  it("breaks price ties by name so pages are stable", () => {
    const tied = [item("Zeta", 100), item("Alpha", 100)];
    expect(sortProducts(tied, "price-low").map((p) => p.name)).toEqual(["Alpha", "Zeta"]);
  });
});

describe("pagination", () => {
  it("slices pages and answers an empty page past the end", () => {
    const numbers = Array.from({ length: 21 }, (_, index) => index);
    expect(paginate(numbers, 3, 8).items).toEqual([16, 17, 18, 19, 20]);
    expect(paginate(numbers, 4, 8).items).toEqual([]);
    expect(paginate(numbers, 4, 8).total).toBe(21);
  });

  it("shows at most 5 page buttons around the current page", () => {
    expect(pageWindow(1, 3, 5)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 10, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 10, 5)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(10, 10, 5)).toEqual([6, 7, 8, 9, 10]);
  });
});

describe("best sellers", () => {
  it("takes badge Best Seller or rating 4.6+, most reviewed first, top 4", () => {
    const list = [
      item("Low rated, many reviews", 100, { rating: 4.5, reviewCount: 999 }),
      item("Badge", 100, { badge: "Best Seller", rating: 4.1, reviewCount: 50 }),
      item("Rated 4.6", 100, { rating: 4.6, reviewCount: 80 }),
      item("Rated 4.9", 100, { rating: 4.9, reviewCount: 60 }),
      item("Rated 4.7", 100, { rating: 4.7, reviewCount: 70 }),
      item("Rated 4.8 few", 100, { rating: 4.8, reviewCount: 5 }),
    ];
    expect(pickBestSellers(list).map((p) => p.name)).toEqual([
      "Rated 4.6",
      "Rated 4.7",
      "Rated 4.9",
      "Badge",
    ]);
  });

  it("picks four from the seeded catalogue", () => {
    expect(pickBestSellers(products)).toHaveLength(4);
  });
});

describe("the seeded catalogue", () => {
  it("spans the spec's prices from ₹250 to ₹699", () => {
    expect(priceBounds(products)).toEqual({ min: 250, max: 699 });
  });

  it("answers a whole query: search, filter, sort, page", () => {
    const page = queryCatalogue(products, { q: "hair", sort: "price-low", page: 1, pageSize: 3 });
    expect(page.items.map((p) => p.name)).toEqual([
      "Hair Growth Serum",
      "Hair Growth Oil",
      "Natural Hair Dye",
    ]);
    expect(page.total).toBe(5);
  });
});
