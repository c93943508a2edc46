export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center">
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700 dark:border-stone-700 dark:border-t-brand-100"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
