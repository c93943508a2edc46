import { useEffect, useId, useState } from "react";
import { CATEGORIES, CATEGORY_FILTERS, DEFAULT_PRICE_RANGE } from "../../../common/catalogue.ts";
import { formatRupees } from "../../../common/money.ts";
import type { GridState } from "./grid-state.ts";

type FiltersPanelProps = {
  id: string;
  state: GridState;
  /** The price slider's range: the cheapest and dearest product, in rupees. */
  bounds: { min: number; max: number };
  onChange: (change: Partial<GridState>, options?: { replace?: boolean }) => void;
  onClear: () => void;
};

const chipClass =
  "inline-flex cursor-pointer items-center rounded-full border border-stone-300 px-3 py-1.5 text-sm select-none hover:border-brand-600 has-checked:border-brand-700 has-checked:bg-brand-700 has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-amber-500 dark:border-stone-600 dark:has-checked:border-brand-100 dark:has-checked:bg-brand-100 dark:has-checked:text-brand-900";

function Chip({
  name,
  label,
  checked,
  onSelect,
}: {
  name: string;
  label: string;
  checked: boolean;
  onSelect: () => void;
}) {
  return (
    <label className={chipClass}>
      <input type="radio" name={name} checked={checked} onChange={onSelect} className="sr-only" />
      {label}
    </label>
  );
}

const legendClass = "mb-2 text-sm font-semibold text-stone-800 dark:text-stone-200";

/** Category with its subcategories (the spec's list), and the highest price to show. */
export function FiltersPanel({ id, state, bounds, onChange, onClear }: FiltersPanelProps) {
  const inputId = useId();
  // The typed upper bound is kept as text while it is being edited; the URL gets whole rupees.
  const [typed, setTyped] = useState(String(state.maxPrice));
  useEffect(() => setTyped(String(state.maxPrice)), [state.maxPrice]);

  const subcategories = state.category ? CATEGORY_FILTERS[state.category].subcategories : [];
  return (
    <div
      id={id}
      className="grid gap-6 rounded-2xl border border-stone-200 bg-white p-4 sm:p-5 md:grid-cols-[1fr_1fr_minmax(16rem,1fr)] dark:border-stone-800 dark:bg-stone-900"
    >
      <fieldset>
        <legend className={legendClass}>Category</legend>
        <div className="flex flex-wrap gap-2">
          <Chip
            name={`${inputId}-category`}
            label="All"
            checked={!state.category}
            onSelect={() => onChange({ category: undefined })}
          />
          {CATEGORIES.map((category) => (
            <Chip
              key={category}
              name={`${inputId}-category`}
              label={CATEGORY_FILTERS[category].label}
              checked={state.category === category}
              onSelect={() => onChange({ category, subcategory: undefined })}
            />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend className={legendClass}>Type</legend>
        {state.category ? (
          <div className="flex flex-wrap gap-2">
            <Chip
              name={`${inputId}-subcategory`}
              label={`All ${CATEGORY_FILTERS[state.category].label.toLowerCase()}`}
              checked={!state.subcategory}
              onSelect={() => onChange({ subcategory: undefined })}
            />
            {subcategories.map((subcategory) => (
              <Chip
                key={subcategory}
                name={`${inputId}-subcategory`}
                label={subcategory}
                checked={state.subcategory === subcategory}
                onSelect={() => onChange({ subcategory })}
              />
            ))}
          </div>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Choose a category to narrow it down by type.
          </p>
        )}
      </fieldset>

      <fieldset>
        <legend className={legendClass}>Price</legend>
        <p className="mb-2 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
          {formatRupees(DEFAULT_PRICE_RANGE.min * 100)} to {formatRupees(state.maxPrice * 100)}
        </p>
        <label htmlFor={`${inputId}-slider`} className="sr-only">
          Highest price
        </label>
        <input
          id={`${inputId}-slider`}
          type="range"
          min={bounds.min}
          max={bounds.max}
          step={1}
          value={Math.min(Math.max(state.maxPrice, bounds.min), bounds.max)}
          aria-valuetext={formatRupees(Math.min(state.maxPrice, bounds.max) * 100)}
          onChange={(event) => onChange({ maxPrice: Number(event.target.value) }, { replace: true })}
          className="w-full accent-brand-700 dark:accent-brand-100"
        />
        <div className="flex justify-between text-xs text-stone-500 dark:text-stone-400" aria-hidden="true">
          <span>{formatRupees(bounds.min * 100)}</span>
          <span>{formatRupees(bounds.max * 100)}</span>
        </div>
        <label htmlFor={`${inputId}-max`} className="mt-3 flex items-center gap-2 text-sm">
          <span>Up to ₹</span>
          <input
            id={`${inputId}-max`}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              const rupees = Number(event.target.value);
              if (event.target.value.trim() !== "" && Number.isFinite(rupees) && rupees >= 0) {
                onChange({ maxPrice: Math.floor(rupees) }, { replace: true });
              }
            }}
            onBlur={() => setTyped(String(state.maxPrice))}
            className="w-28 rounded-lg border border-stone-300 bg-white px-3 py-1.5 dark:border-stone-600 dark:bg-stone-950"
          />
        </label>
      </fieldset>

      <div className="md:col-span-3">
        <button
          type="button"
          onClick={onClear}
          className="text-sm font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-100"
        >
          Clear all filters
        </button>
      </div>
    </div>
  );
}
