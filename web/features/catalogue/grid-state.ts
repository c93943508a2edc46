import {
  CATEGORIES,
  CATEGORY_FILTERS,
  type Category,
  DEFAULT_PRICE_RANGE,
  DEFAULT_SORT,
  SORT_OPTIONS,
  type SortOption,
} from "../../../common/catalogue.ts";
import type { CatalogueFilter } from "../../../common/catalogue-rules.ts";

/** The featured grid's view, kept in the URL so a shared link reopens it. */
export type GridState = {
  category?: Category;
  subcategory?: string;
  /** rupees */
  maxPrice: number;
  sort: SortOption;
  page: number;
};

export const GRID_PARAMS = ["category", "subcategory", "maxPrice", "sort", "page"] as const;

export const DEFAULT_GRID_STATE: GridState = {
  maxPrice: DEFAULT_PRICE_RANGE.max,
  sort: DEFAULT_SORT,
  page: 1,
};

export const SORT_LABELS: Record<SortOption, string> = {
  "name-asc": "Name: A to Z",
  "name-desc": "Name: Z to A",
  "price-low": "Price: low to high",
  "price-high": "Price: high to low",
};

const isCategory = (value: string | null): value is Category =>
  (CATEGORIES as readonly (string | null)[]).includes(value);

export function categoryOfSubcategory(subcategory: string): Category | undefined {
  return CATEGORIES.find((category) => CATEGORY_FILTERS[category].subcategories.includes(subcategory));
}

/** Reads the view from the URL; anything unknown or malformed falls back to the default. */
export function readGridState(params: URLSearchParams): GridState {
  const subcategoryParam = params.get("subcategory");
  const categoryParam = params.get("category");
  // A subcategory belongs to exactly one category, so it alone is enough.
  const subcategoryCategory = subcategoryParam ? categoryOfSubcategory(subcategoryParam) : undefined;
  const category = isCategory(categoryParam) ? categoryParam : subcategoryCategory;
  const subcategory =
    subcategoryParam && subcategoryCategory && subcategoryCategory === category
      ? subcategoryParam
      : undefined;

  const maxPriceParam = params.get("maxPrice");
  const maxPrice = maxPriceParam === null || maxPriceParam.trim() === "" ? Number.NaN : Number(maxPriceParam);
  const sortParam = params.get("sort");
  const page = Number(params.get("page"));
  return {
    category,
    subcategory,
    maxPrice: Number.isFinite(maxPrice) && maxPrice >= 0 ? Math.floor(maxPrice) : DEFAULT_GRID_STATE.maxPrice,
    sort: (SORT_OPTIONS as readonly (string | null)[]).includes(sortParam)
      ? (sortParam as SortOption)
      : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Writes the view into a copy of `params`, leaving defaults out so plain links stay plain. */
export function writeGridState(state: GridState, params = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of GRID_PARAMS) next.delete(key);
  if (state.category) next.set("category", state.category);
  if (state.subcategory) next.set("subcategory", state.subcategory);
  if (state.maxPrice !== DEFAULT_GRID_STATE.maxPrice) next.set("maxPrice", String(state.maxPrice));
  if (state.sort !== DEFAULT_SORT) next.set("sort", state.sort);
  if (state.page > 1) next.set("page", String(state.page));
  return next;
}

/** Spec: the grid goes back to page 1 whenever category, subcategory, price or sort changes. */
export function changeGridState(state: GridState, change: Partial<GridState>): GridState {
  const next = { ...state, ...change };
  if (change.page === undefined) next.page = 1;
  if ("category" in change) {
    if (next.subcategory && categoryOfSubcategory(next.subcategory) !== next.category)
      next.subcategory = undefined;
  }
  return next;
}

export function gridFilter(state: GridState): CatalogueFilter {
  return {
    category: state.category,
    subcategory: state.subcategory,
    minPrice: DEFAULT_PRICE_RANGE.min,
    maxPrice: state.maxPrice,
  };
}

export function countActiveFilters(state: GridState): number {
  return (
    (state.category ? 1 : 0) +
    (state.subcategory ? 1 : 0) +
    (state.maxPrice !== DEFAULT_GRID_STATE.maxPrice ? 1 : 0)
  );
}
