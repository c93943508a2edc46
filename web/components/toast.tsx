import { useSyncExternalStore } from "react";

/** Spec 4 and 9: the add-to-cart toast shows for 2.5 seconds. */
export const TOAST_DURATION_MS = 2500;

type Toast = { id: number; message: string; tone: "success" | "error" };

let current: Toast | null = null;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Shows one short message; a newer one replaces it and starts the 2.5 s again. */
export function showToast(message: string, tone: Toast["tone"] = "success") {
  clearTimeout(hideTimer);
  current = { id: nextId++, message, tone };
  emit();
  hideTimer = setTimeout(dismissToast, TOAST_DURATION_MS);
}

export function dismissToast() {
  clearTimeout(hideTimer);
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Rendered once in the layout. The live region stays mounted so screen readers announce each message. */
export function Toaster() {
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 md:justify-end md:px-6"
    >
      {toast && (
        <div
          key={toast.id}
          data-testid="toast"
          className={`pointer-events-auto flex max-w-md items-center gap-3 rounded-lg border px-4 py-3 text-sm font-medium shadow-lg ${
            toast.tone === "success"
              ? "border-brand-600 bg-brand-50 text-brand-900 dark:border-brand-600 dark:bg-brand-900 dark:text-brand-50"
              : "border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
          }`}
        >
          <span>{toast.message}</span>
          <button
            type="button"
            onClick={dismissToast}
            aria-label="Dismiss message"
            className="-mr-1 rounded px-2 py-1 text-lg leading-none hover:bg-black/10 dark:hover:bg-white/10"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      )}
    </div>
  );
}
