import { type ReactNode, useEffect, useId, useRef } from "react";
import { CloseIcon } from "./icons.tsx";

export type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** "sheet" slides in from the side (menus); "center" is a classic pop-up. */
  variant?: "center" | "sheet" | "top";
  /** Hide the visible title (the dialog stays labelled by it). */
  hideTitle?: boolean;
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** showModal() keeps focus off the page, but Tab can still leave for the browser's own bar: wrap it. */
function keepFocusInside(event: React.KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

const VARIANTS = {
  center: "m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl",
  top: "mx-auto mt-16 mb-auto w-[min(40rem,calc(100vw-2rem))] rounded-2xl",
  sheet: "my-0 mr-auto ml-0 h-dvh max-h-none w-[min(22rem,88vw)] rounded-r-2xl",
};

/**
 * A modal built on the native <dialog>: showModal() makes the rest of the page inert, Tab wraps
 * around inside it, Escape closes it, focus returns to the opener, and a click on the backdrop closes.
 */
export function Dialog({ open, onClose, title, children, variant = "center", hideTitle }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before the dialog is shown, so a field that wants focus says so this way.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={keepFocusInside}
      onClick={(event) => {
        // Clicks on the backdrop land on the <dialog> itself; its content sits in the inner div.
        if (event.target === event.currentTarget) onClose();
      }}
      className={`${VARIANTS[variant]} bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-950/60 dark:bg-stone-900 dark:text-stone-100`}
    >
      <div className="flex h-full flex-col p-5 sm:p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2
            id={titleId}
            className={
              hideTitle ? "sr-only" : "font-serif text-xl font-semibold text-brand-800 dark:text-brand-100"
            }
          >
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="-m-2 ml-auto rounded-full p-2 text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
          >
            <CloseIcon />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
