/** Form controls and messages shared by the sign-in, settings and other forms. */
import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, useId } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string };

export function TextField({ label, hint, error, id, className, ...input }: FieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      <input
        id={fieldId}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        aria-invalid={error ? true : undefined}
        className="mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 placeholder:text-stone-400 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600/40 aria-invalid:border-red-600 dark:border-stone-600 dark:bg-stone-950 dark:text-stone-100"
        {...input}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A message about the whole form: errors are announced at once, confirmations politely. */
export function Notice({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
    success:
      "border-brand-100 bg-brand-50 text-brand-800 dark:border-brand-800 dark:bg-brand-900 dark:text-brand-50",
    info: "border-stone-200 bg-stone-50 text-stone-800 dark:border-stone-700 dark:bg-stone-800 dark:text-stone-100",
  }[tone];
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-lg border px-4 py-3 text-sm ${styles}`}
    >
      {children}
    </div>
  );
}

export function PrimaryButton({
  pending,
  pendingLabel,
  children,
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { pending?: boolean; pendingLabel?: string }) {
  return (
    <button
      aria-disabled={pending || undefined}
      className="w-full rounded-lg bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60 aria-disabled:cursor-wait aria-disabled:opacity-80 dark:bg-brand-600 dark:hover:bg-brand-700"
      {...button}
      onClick={pending ? (event) => event.preventDefault() : button.onClick}
    >
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}

export const secondaryButton =
  "flex w-full items-center justify-center gap-3 rounded-lg border border-stone-300 bg-white px-4 py-3 font-medium text-stone-800 hover:bg-stone-50 dark:border-stone-600 dark:bg-stone-900 dark:text-stone-100 dark:hover:bg-stone-800";

export const textLink =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-100 dark:hover:text-white";

export function Divider({ label }: { label: string }) {
  return (
    <div className="flex items-center gap-3 text-sm text-stone-500 dark:text-stone-400">
      <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
      {label}
      <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
    </div>
  );
}
