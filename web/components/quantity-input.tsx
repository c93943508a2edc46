import { useId, useState } from "react";

type QuantityInputProps = {
  value: number;
  onChange: (quantity: number) => void;
  min: number;
  max: number;
  label?: string;
};

function clampQuantity(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.trunc(value))) : min;
}

const stepButton =
  "flex size-11 items-center justify-center text-xl font-medium hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-400 dark:hover:bg-stone-800 dark:disabled:text-stone-600";

/** A number between min and max: type it, or step with the buttons or the arrow keys. */
export function QuantityInput({ value, onChange, min, max, label = "Quantity" }: QuantityInputProps) {
  const id = useId();
  // What the shopper typed, which may be briefly empty or out of range; committed on blur.
  const [text, setText] = useState(String(value));

  const commit = (next: number) => {
    const clamped = clampQuantity(next, min, max);
    setText(String(clamped));
    onChange(clamped);
  };

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <div className="inline-flex items-center overflow-hidden rounded-lg border border-stone-300 bg-white dark:border-stone-600 dark:bg-stone-900">
        <button
          type="button"
          className={stepButton}
          aria-label={`Decrease ${label.toLowerCase()}`}
          disabled={value <= min}
          onClick={() => commit(value - 1)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const typed = Number(event.target.value);
            if (event.target.value !== "" && typed >= min && typed <= max && Number.isInteger(typed)) {
              onChange(typed);
            }
          }}
          onBlur={() => commit(text === "" ? value : Number(text))}
          className="h-11 w-14 border-x border-stone-300 bg-transparent text-center tabular-nums [appearance:textfield] dark:border-stone-600 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
        />
        <button
          type="button"
          className={stepButton}
          aria-label={`Increase ${label.toLowerCase()}`}
          disabled={value >= max}
          onClick={() => commit(value + 1)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
    </div>
  );
}
