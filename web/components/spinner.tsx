/** The spec's loading spinner: full-height for a first load, a small floating one while moving between pages. */
export function Spinner({ label = "Loading", floating = false }: { label?: string; floating?: boolean }) {
  return (
    <div
      role="status"
      className={
        floating
          ? "fixed top-24 right-4 z-50 rounded-full bg-white p-2 shadow-lg dark:bg-stone-900"
          : "flex min-h-[40vh] items-center justify-center"
      }
    >
      <span
        aria-hidden="true"
        className={`block animate-spin rounded-full border-brand-100 border-t-brand-700 dark:border-stone-700 dark:border-t-brand-100 ${
          floating ? "size-6 border-[3px]" : "size-10 border-4"
        }`}
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
