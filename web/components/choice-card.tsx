import type { ReactNode } from "react";

/**
 * One choice of several, drawn as a card with its radio button: the whole card is the label, the chosen one
 * is tinted in the brand's colour, a keyboard's focus shows around it, and a choice that cannot be taken
 * is dimmed. The group around it is a fieldset with a legend, which names the question.
 */
export function ChoiceCard({
  name,
  value,
  checked,
  onChange,
  disabled = false,
  className = "",
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  disabled?: boolean;
  /** The card's text size and the like, for what it holds. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <label
      className={`flex items-start gap-3 rounded-md border border-stone-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-amber-500 dark:border-stone-600 dark:has-checked:border-brand-100 dark:has-checked:bg-brand-900/40 ${
        disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer"
      } ${className}`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
        className="mt-1 accent-brand-700 focus:outline-none"
      />
      <span className="flex-1">{children}</span>
    </label>
  );
}
