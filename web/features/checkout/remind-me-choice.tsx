/**
 * "Remind me about my cart" at checkout (docs/decisions/089): unticked until the shopper ticks it, in the same
 * words as the account page's (web/features/settings/marketing-consent.tsx). Written here rather than shared,
 * so no chunk is added to what every page's router lists. `status` says what became of the last change.
 */
export function RemindMeChoice({
  checked,
  onChange,
  status,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  status: string | null;
}) {
  return (
    <div className="mt-4">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="remindMe"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">Remind me about a cart I leave behind, and send me offers</span>
          <span className="text-stone-600 dark:text-stone-400">
            At most two reminders per cart. Unsubscribe from any of them in one tap.
          </span>
        </span>
      </label>
      <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {status ?? ""}
      </p>
    </div>
  );
}
