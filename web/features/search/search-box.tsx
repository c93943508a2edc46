import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { Product } from "../../../common/catalogue.ts";
import { SEARCH_DROPDOWN_LIMIT } from "../../../common/catalogue.ts";
import { searchDropdown } from "../../../common/catalogue-rules.ts";
import { formatRupees } from "../../../common/money.ts";
import type { WordSearch } from "../../../common/search-words.ts";
import { SearchIcon } from "../../components/icons.tsx";

/** Spec: the dropdown closes 200 ms after the input loses focus, so a click on a result still lands. */
export const SEARCH_BLUR_CLOSE_MS = 200;

type SearchBoxProps = {
  products: Product[];
  /** Focus the field when its dialog opens (the overlay opens to type into). */
  autoFocus?: boolean;
  /** Called after a result is chosen (the overlay closes itself). */
  onChoose?: () => void;
  /** In the overlay the results flow below the input instead of floating over the page. */
  inline?: boolean;
};

/** Product search as an ARIA combobox: the input owns a listbox of at most 8 matching products. */
export function SearchBox({ products, autoFocus, onChoose, inline = false }: SearchBoxProps) {
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const blurTimer = useRef<number | undefined>(undefined);
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-option-${index}`;

  // Search by words loads once someone types, so the first page does not carry it (docs/decisions/079).
  const [byWords, setByWords] = useState<WordSearch>();
  const { shown, total } = useMemo(
    () => searchDropdown(products, query, byWords),
    [products, query, byWords],
  );
  const needle = query.trim();
  const expanded = open && needle !== "";
  useEffect(() => {
    if (needle)
      void import("../../../common/search-words.ts").then((words) => setByWords(() => words.searchByWords));
  }, [needle]);

  useEffect(() => () => window.clearTimeout(blurTimer.current), []);

  const choose = (product: Product) => {
    setOpen(false);
    setQuery("");
    setActive(-1);
    onChoose?.();
    navigate(`/product/${product.slug}`);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (last < 0) return;
      if (event.key === "ArrowDown") setActive(active >= last ? 0 : active + 1);
      else setActive(active <= 0 ? last : active - 1);
    } else if (event.key === "Enter") {
      const target = expanded ? (shown[active] ?? shown[0]) : undefined;
      if (target) {
        event.preventDefault();
        choose(target);
      }
    } else if (event.key === "Escape") {
      // First Escape closes the list, the next clears the text; only then may a dialog close.
      if (expanded) {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (query) {
        event.preventDefault();
        event.stopPropagation();
        setQuery("");
      }
    }
  };

  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="sr-only">
        Search products
      </label>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-stone-500 dark:text-stone-400" />
        <input
          id={`${id}-input`}
          type="search"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          data-autofocus={autoFocus || undefined}
          placeholder="Search hair oils, face packs, health mixes…"
          value={query}
          maxLength={100}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            window.clearTimeout(blurTimer.current);
            setOpen(true);
          }}
          onBlur={() => {
            window.clearTimeout(blurTimer.current);
            blurTimer.current = window.setTimeout(() => {
              setOpen(false);
              setActive(-1);
            }, SEARCH_BLUR_CLOSE_MS);
          }}
          onKeyDown={onKeyDown}
          className="w-full rounded-full border border-stone-300 bg-white py-3 pr-4 pl-12 text-base shadow-sm placeholder:text-stone-500 focus:border-brand-600 dark:border-stone-700 dark:bg-stone-900 dark:placeholder:text-stone-400"
        />
      </div>
      <div
        hidden={!expanded}
        className={
          inline
            ? "mt-3"
            : "absolute inset-x-0 top-full z-30 mt-2 rounded-2xl border border-stone-200 bg-white p-2 shadow-xl dark:border-stone-700 dark:bg-stone-900"
        }
      >
        <div id={listId} role="listbox" aria-label="Matching products" hidden={shown.length === 0}>
          {shown.map((product, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the input keeps focus and handles the keys (aria-activedescendant)
            <div
              key={product.slug}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keep focus in the input: the list is driven from there.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => choose(product)}
              className="flex cursor-pointer items-center gap-3 rounded-xl px-2 py-1.5 aria-selected:bg-brand-50 aria-selected:ring-2 aria-selected:ring-brand-600 dark:aria-selected:bg-stone-800 dark:aria-selected:ring-brand-100"
            >
              <img
                src={product.image.small}
                width={44}
                height={44}
                alt=""
                decoding="async"
                className="size-11 rounded-lg bg-stone-100 dark:bg-stone-800"
              />
              <span className="flex-1 font-medium">{product.name}</span>
              <span className="text-sm text-stone-600 dark:text-stone-400">
                {formatRupees(product.pricePaise)}
              </span>
            </div>
          ))}
        </div>
        {expanded && shown.length === 0 && (
          <p className="px-3 py-2 text-stone-600 dark:text-stone-400">No products found for "{needle}"</p>
        )}
        {total > SEARCH_DROPDOWN_LIMIT && (
          <p className="border-t border-stone-100 px-3 pt-2 pb-1 text-sm text-stone-600 dark:border-stone-800 dark:text-stone-400">
            Showing first {SEARCH_DROPDOWN_LIMIT} results of {total}
          </p>
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {expanded
          ? total === 0
            ? "No products found"
            : `${total} ${total === 1 ? "product" : "products"} found`
          : ""}
      </p>
    </div>
  );
}
