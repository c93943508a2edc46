import type { ReactNode } from "react";

/** What a checkout consent's box gets from the form: its state, and the line about its last save. */
export type ConsentChoiceProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** What became of the last change; absent where the choice goes with the order instead. */
  status?: string | null;
};

/**
 * One consent at checkout: a box the shopper ticks herself (never ticked for her), what she agrees to in
 * bold, what comes of it beneath, and, where the choice is saved as it changes, a line saying how that went.
 * Every consent at checkout is this box, so they look and read alike.
 */
export function ConsentBox({
  name,
  title,
  detail,
  checked,
  onChange,
  status,
}: ConsentChoiceProps & { name: string; title: string; detail: ReactNode }) {
  return (
    <div className="mt-3">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name={name}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">{title}</span>
          <span className="text-stone-600 dark:text-stone-400">{detail}</span>
        </span>
      </label>
      {status !== undefined && (
        <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
          {status ?? ""}
        </p>
      )}
    </div>
  );
}
