import type { ReactNode } from "react";

/** A message about the whole form: errors are announced at once, confirmations politely. */
export function Notice({
  tone,
  className,
  children,
}: {
  tone: "error" | "success" | "info";
  /** Its place among its neighbours (a margin); the look is the notice's own. */
  className?: string;
  children: ReactNode;
}) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
    success:
      "border-brand-100 bg-brand-50 text-brand-800 dark:border-brand-800 dark:bg-brand-900 dark:text-brand-50",
    info: "border-stone-200 bg-stone-50 text-stone-800 dark:border-stone-700 dark:bg-stone-800 dark:text-stone-100",
  }[tone];
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-lg border px-4 py-3 text-sm ${styles}${className ? ` ${className}` : ""}`}
    >
      {children}
    </div>
  );
}

/** A rule across a form with a word in it ("or"), between two ways of doing the same thing. */
export function Divider({ label }: { label: string }) {
  return (
    <div className="flex items-center gap-3 text-sm text-stone-500 dark:text-stone-400">
      <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
      {label}
      <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
    </div>
  );
}
