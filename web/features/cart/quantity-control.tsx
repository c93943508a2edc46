import { useState } from "react";
import { MAX_QUANTITY } from "../../../common/cart.ts";

/** − [n] + for one line; typing 0 or stepping below 1 removes it. */
export function QuantityControl({
  name,
  quantity,
  onChange,
}: {
  name: string;
  quantity: number;
  onChange: (quantity: number) => void;
}) {
  // What the shopper is typing; null when the field shows the cart's quantity.
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const wanted = Number.parseInt(draft, 10);
    setDraft(null);
    if (!Number.isFinite(wanted)) return;
    const clamped = Math.min(MAX_QUANTITY, Math.max(0, wanted));
    if (clamped !== quantity) onChange(clamped);
  };
  const step =
    "flex size-11 items-center justify-center text-lg font-semibold text-stone-700 hover:bg-stone-100 disabled:opacity-40 dark:text-stone-200 dark:hover:bg-stone-800";
  return (
    <div className="inline-flex items-center rounded-lg border border-stone-300 dark:border-stone-600">
      <button
        type="button"
        className={`${step} rounded-l-lg`}
        aria-label={quantity === 1 ? `Remove ${name}` : `Decrease quantity of ${name}`}
        onClick={() => onChange(quantity - 1)}
      >
        <span aria-hidden="true">−</span>
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_QUANTITY}
        aria-label={`Quantity of ${name}`}
        value={draft ?? String(quantity)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
          if (event.key === "Escape") setDraft(null);
        }}
        className="h-11 w-12 border-x border-stone-300 bg-transparent text-center [appearance:textfield] dark:border-stone-600 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
      />
      <button
        type="button"
        className={`${step} rounded-r-lg`}
        aria-label={`Increase quantity of ${name}`}
        disabled={quantity >= MAX_QUANTITY}
        onClick={() => onChange(quantity + 1)}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}
