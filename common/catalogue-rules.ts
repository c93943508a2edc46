import {
  BEST_SELLER_COUNT,
  BEST_SELLER_MIN_RATING,
  type Category,
  DEFAULT_SORT,
  SEARCH_DROPDOWN_LIMIT,
  type SortOption,
} from "./catalogue.ts";
import type { WordSearch } from "./search-words.ts";

/** The fields the rules read; both the API's rows and the web app's products have them. */
type Listed = {
  name: string;
  /** read by the word search only */
  description?: string;
  pricePaise: number;
  category: string;
  subcategory: string;
  badge: string | null;
  rating: number;
  reviewCount: number;
};

/** Spec 5: trimmed text, case-insensitive substring of the name; empty text matches nothing. */
export function matchesSearch(name: string, query: string): boolean {
  const needle = query.trim().toLowerCase();
  return needle !== "" && name.toLowerCase().includes(needle);
}

/**
 * The spec's substring rule, unchanged whenever it finds anything; when it finds nothing, every typed word
 * (`byWords`, common/search-words.ts) where the caller has it loaded (docs/decisions/079).
 */
export function searchProducts<T extends Listed>(
  products: readonly T[],
  query: string,
  byWords?: WordSearch,
): T[] {
  const found = products.filter((product) => matchesSearch(product.name, query));
  return found.length || !byWords ? found : byWords(products, query);
}

/** What the search dropdown shows: at most 8, and how many matched in all. */
export function searchDropdown<T extends Listed>(
  products: readonly T[],
  query: string,
  byWords?: WordSearch,
) {
  const matches = searchProducts(products, query, byWords);
  return { shown: matches.slice(0, SEARCH_DROPDOWN_LIMIT), total: matches.length };
}

export type CatalogueFilter = {
  category?: Category;
  subcategory?: string;
  /** rupees, inclusive */
  minPrice?: number;
  /** rupees, inclusive */
  maxPrice?: number;
};

export function filterProducts<T extends Listed>(products: readonly T[], filter: CatalogueFilter): T[] {
  return products.filter(
    (product) =>
      (filter.category === undefined || product.category === filter.category) &&
      (filter.subcategory === undefined || product.subcategory === filter.subcategory) &&
      (filter.minPrice === undefined || product.pricePaise >= filter.minPrice * 100) &&
      (filter.maxPrice === undefined || product.pricePaise <= filter.maxPrice * 100),
  );
}

const byName = (a: Listed, b: Listed) => a.name.localeCompare(b.name, "en");

/** Sorts a copy; equal prices fall back to the name so pages never reshuffle. */
export function sortProducts<T extends Listed>(products: readonly T[], sort: SortOption = DEFAULT_SORT): T[] {
  const compare: Record<SortOption, (a: T, b: T) => number> = {
    "price-low": (a, b) => a.pricePaise - b.pricePaise || byName(a, b),
    "price-high": (a, b) => b.pricePaise - a.pricePaise || byName(a, b),
    "name-asc": byName,
    "name-desc": (a, b) => byName(b, a),
  };
  return [...products].sort(compare[sort]);
}

/** Page numbers start at 1; a page past the end is empty, never an error. */
export function paginate<T>(items: readonly T[], page: number, pageSize: number) {
  const start = (page - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), total: items.length, page, pageSize };
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** At most `maxButtons` page numbers, a window kept around the current page. */
export function pageWindow(current: number, pages: number, maxButtons: number): number[] {
  const size = Math.min(maxButtons, pages);
  const first = Math.min(Math.max(1, current - Math.floor(size / 2)), pages - size + 1);
  return Array.from({ length: size }, (_, index) => first + index);
}

/** Spec: badge Best Seller or rating 4.6 and up, most reviewed first, top 4. */
export function pickBestSellers<T extends Listed>(products: readonly T[]): T[] {
  return products
    .filter((product) => product.badge === "Best Seller" || product.rating >= BEST_SELLER_MIN_RATING)
    .sort((a, b) => b.reviewCount - a.reviewCount || byName(a, b))
    .slice(0, BEST_SELLER_COUNT);
}

/** The price slider's bounds in whole rupees. */
export function priceBounds(products: readonly Listed[]): { min: number; max: number } {
  if (products.length === 0) return { min: 0, max: 0 };
  const prices = products.map((product) => product.pricePaise);
  return { min: Math.floor(Math.min(...prices) / 100), max: Math.ceil(Math.max(...prices) / 100) };
}

export type CatalogueQuery = CatalogueFilter & {
  q?: string;
  sort?: SortOption;
  page: number;
  pageSize: number;
};

/** Search, filter, sort and paginate: the one pipeline behind the grid and GET /api/products. */
export function queryCatalogue<T extends Listed>(
  products: readonly T[],
  query: CatalogueQuery,
  byWords?: WordSearch,
) {
  const searched = query.q === undefined ? products : searchProducts(products, query.q, byWords);
  const sorted = sortProducts(filterProducts(searched, query), query.sort);
  return paginate(sorted, query.page, query.pageSize);
}
