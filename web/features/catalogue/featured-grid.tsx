import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import {
  PAGE_SIZE,
  PAGE_SIZE_NARROW,
  type Product,
  SORT_OPTIONS,
  type SortOption,
} from "../../../common/catalogue.ts";
import { pageCount, priceBounds, queryCatalogue } from "../../../common/catalogue-rules.ts";
import { Button } from "../../components/button.tsx";
import { SECTION_IDS } from "../../lib/go-to-section.ts";
import { useMediaQuery } from "../../lib/use-media-query.ts";
import { FiltersPanel } from "./filters-panel.tsx";
import {
  changeGridState,
  countActiveFilters,
  DEFAULT_GRID_STATE,
  type GridState,
  gridFilter,
  readGridState,
  SORT_LABELS,
  writeGridState,
} from "./grid-state.ts";
import { Pagination } from "./pagination.tsx";
import { ProductCard, productCardId } from "./product-card.tsx";

/** How long a product brought into view by /?buy= stays highlighted. */
export const BUY_HIGHLIGHT_MS = 3000;

/** The whole catalogue, sorted and filtered as the state says, across all pages. */
function listAll(products: Product[], state: GridState) {
  return queryCatalogue(products, {
    ...gridFilter(state),
    sort: state.sort,
    page: 1,
    pageSize: products.length || 1,
  }).items;
}

function findByNameOrSlug(products: Product[], wanted: string) {
  const needle = wanted.trim().toLowerCase();
  return products.find((product) => product.name.toLowerCase() === needle || product.slug === needle);
}

/** The featured products: Filters panel, Sort menu, 8 per page (4 on narrow screens), all in the URL. */
export function FeaturedGrid({ products }: { products: Product[] }) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readGridState(params), [params]);
  // The server renders a wide page of 8, the cards past 4 hidden by CSS below 768 px until the browser knows
  // its width: the grid never grows after hydration, so nothing below it shifts.
  const pageSize = useMediaQuery("(min-width: 768px)", true) ? PAGE_SIZE : PAGE_SIZE_NARROW;
  const bounds = useMemo(() => priceBounds(products), [products]);
  const [filtersOpen, setFiltersOpen] = useState(() => countActiveFilters(state) > 0);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const panelId = useId();
  const sortId = useId();

  const total = useMemo(() => listAll(products, state).length, [products, state]);
  const pages = pageCount(total, pageSize);
  const page = Math.min(state.page, pages); // a link to page 9 of 3 shows the last page
  const shown = queryCatalogue(products, { ...gridFilter(state), sort: state.sort, page, pageSize }).items;

  const setState = useCallback(
    (next: GridState, options: { replace?: boolean } = {}) =>
      setParams((current) => writeGridState(next, current), {
        replace: options.replace,
        preventScrollReset: true,
      }),
    [setParams],
  );
  const update = (change: Partial<GridState>, options?: { replace?: boolean }) =>
    setState(changeGridState(state, change), options);

  // /?buy={product name}: open the page the product is on, scroll to it and highlight it briefly.
  const buy = params.get("buy");
  useEffect(() => {
    if (buy === null) return;
    const wanted = findByNameOrSlug(products, buy);
    let target = state;
    if (wanted && !listAll(products, state).includes(wanted))
      target = { ...DEFAULT_GRID_STATE, sort: state.sort };
    const index = wanted ? listAll(products, target).indexOf(wanted) : -1;
    const next = index < 0 ? target : { ...target, page: Math.floor(index / pageSize) + 1 };
    setParams(
      (current) => {
        const written = writeGridState(next, current);
        written.delete("buy");
        return written;
      },
      { replace: true, preventScrollReset: true },
    );
    if (wanted) setHighlighted(wanted.slug);
  }, [buy, products, state, pageSize, setParams]);

  // The URL change that opens the product's page lands a render later than the highlight.
  const highlightShown = highlighted !== null && shown.some((product) => product.slug === highlighted);
  useEffect(() => {
    if (!highlighted || !highlightShown) return;
    document.getElementById(productCardId(highlighted))?.scrollIntoView({ block: "center" });
    const timer = window.setTimeout(() => setHighlighted(null), BUY_HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [highlighted, highlightShown]);

  const goToPage = (next: number) => {
    setState({ ...state, page: next });
    sectionRef.current?.scrollIntoView({ block: "start" });
  };

  const activeFilters = countActiveFilters(state);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  return (
    <section
      ref={sectionRef}
      id={SECTION_IDS.featured}
      tabIndex={-1}
      aria-labelledby={`${panelId}-heading`}
      className="mx-auto max-w-7xl px-4 py-12 focus:outline-none sm:py-16"
    >
      <div className="mb-6 text-center">
        <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase dark:text-brand-100">
          Shop
        </p>
        <h2 id={`${panelId}-heading`} className="font-serif text-3xl font-semibold sm:text-4xl">
          Featured products
        </h2>
      </div>

      <div className="mb-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          aria-expanded={filtersOpen}
          aria-controls={panelId}
          onClick={() => setFiltersOpen(!filtersOpen)}
          className="inline-flex items-center gap-2 rounded-full border border-stone-300 bg-white px-4 py-2 text-sm font-semibold hover:border-brand-600 dark:border-stone-700 dark:bg-stone-900"
        >
          Filters
          {activeFilters > 0 && (
            <span className="rounded-full bg-brand-700 px-2 text-xs text-white dark:bg-brand-100 dark:text-brand-900">
              {activeFilters}
              <span className="sr-only"> active</span>
            </span>
          )}
        </button>
        <div className="ml-auto flex items-center gap-2">
          <label htmlFor={sortId} className="text-sm font-medium">
            Sort by
          </label>
          <select
            id={sortId}
            value={state.sort}
            onChange={(event) => update({ sort: event.target.value as SortOption })}
            className="rounded-full border border-stone-300 bg-white px-3 py-2 text-sm dark:border-stone-700 dark:bg-stone-900"
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {SORT_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
      </div>

      {filtersOpen && (
        <div className="mb-6">
          <FiltersPanel
            id={panelId}
            state={state}
            bounds={bounds}
            onChange={update}
            onClear={() => setState({ ...DEFAULT_GRID_STATE, sort: state.sort })}
          />
        </div>
      )}

      <p aria-live="polite" className="mb-4 text-sm text-stone-600 dark:text-stone-400">
        {total === 0
          ? "No products match these filters."
          : `Showing ${first}–${first + shown.length - 1} of ${total} ${total === 1 ? "product" : "products"}`}
      </p>

      {total === 0 ? (
        <div className="rounded-2xl border border-dashed border-stone-300 px-4 py-16 text-center dark:border-stone-700">
          <p className="font-serif text-2xl font-semibold">No products found</p>
          <p className="mt-2 text-stone-600 dark:text-stone-400">
            Try adjusting your filters or check back later
          </p>
          <Button
            type="button"
            onClick={() => setState({ ...DEFAULT_GRID_STATE, sort: state.sort })}
            variant="brand"
            className="mt-6"
          >
            Clear filters
          </Button>
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-4" aria-label="Products">
          {shown.map((product, index) => (
            <li key={product.slug} className={index >= PAGE_SIZE_NARROW ? "max-md:hidden" : undefined}>
              <ProductCard product={product} highlighted={highlighted === product.slug} />
            </li>
          ))}
        </ul>
      )}

      <Pagination page={page} pages={pages} onPage={goToPage} />
    </section>
  );
}
