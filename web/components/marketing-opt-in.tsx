import { CONSENT_HINT, CONSENT_LABEL } from "../../common/cart-reminders.ts";

/**
 * The shopper's opt-in to cart reminders and offers (docs/decisions/089): unticked until the shopper ticks it,
 * in the same words at checkout and on the account page. `status` says what became of the last change.
 */
export function MarketingOptIn({
  checked,
  onChange,
  disabled = false,
  status,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  status?: string | null;
}) {
  return (
    <div className="mt-4">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="remindMe"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">{CONSENT_LABEL}</span>
          <span className="text-stone-600 dark:text-stone-400">{CONSENT_HINT}</span>
        </span>
      </label>
      <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {status ?? ""}
      </p>
    </div>
  );
}
