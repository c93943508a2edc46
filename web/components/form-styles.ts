/** Class lists for form controls, so every form looks and focuses the same in light and dark. */

const buttonBase =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60";

export const buttonClass = {
  primary: `${buttonBase} bg-brand-700 text-white hover:bg-brand-800 dark:bg-brand-600 dark:hover:bg-brand-700`,
  secondary: `${buttonBase} border border-stone-300 bg-white text-stone-800 hover:bg-stone-100 dark:border-stone-600 dark:bg-stone-900 dark:text-stone-100 dark:hover:bg-stone-800`,
  danger: `${buttonBase} border border-red-300 bg-white text-red-800 hover:bg-red-50 dark:border-red-800 dark:bg-stone-900 dark:text-red-300 dark:hover:bg-red-950`,
} as const;

export const inputClass =
  "block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 aria-invalid:border-red-600 disabled:opacity-60 dark:border-stone-600 dark:bg-stone-950 dark:text-stone-100 dark:placeholder:text-stone-400 dark:aria-invalid:border-red-400";

export const labelClass = "mb-1 block text-sm font-medium text-stone-800 dark:text-stone-200";

export const hintClass = "mt-1 text-sm text-stone-600 dark:text-stone-400";

export const errorTextClass = "mt-1 text-sm font-medium text-red-700 dark:text-red-400";

export const cardClass =
  "rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
