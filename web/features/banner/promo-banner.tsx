import { useEffect, useRef, useState } from "react";
import { useShopData } from "../../lib/shop-data.ts";

/** Spec: a minimised banner opens again by itself after 10 seconds. */
export const BANNER_REEXPAND_MS = 10_000;

/**
 * The owner's offer (the spec's GLOW20 by default, kept at /admin/shop). It can be minimised to a small
 * button but never dismissed for good: it comes back after 10 seconds or when the button is clicked. The
 * owner can switch it off altogether.
 */
export function PromoBanner() {
  const { banner } = useShopData().config;
  const [minimised, setMinimised] = useState(false);
  const minimiseRef = useRef<HTMLButtonElement>(null);
  const expandRef = useRef<HTMLButtonElement>(null);
  // Keyboard users keep their place: focus follows the banner between its two forms.
  const moveFocus = useRef(false);

  useEffect(() => {
    if (!minimised) return;
    const timer = window.setTimeout(() => {
      moveFocus.current = document.activeElement === expandRef.current;
      setMinimised(false);
    }, BANNER_REEXPAND_MS);
    return () => window.clearTimeout(timer);
  }, [minimised]);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (minimised ? expandRef : minimiseRef).current?.focus();
  }, [minimised]);

  if (!banner.visible) return null;

  if (minimised) {
    return (
      <button
        ref={expandRef}
        type="button"
        onClick={() => {
          moveFocus.current = true;
          setMinimised(false);
        }}
        className="fixed bottom-4 left-4 z-50 rounded-full bg-amber-400 px-4 py-2 text-sm font-bold text-stone-950 shadow-lg ring-2 ring-white hover:bg-amber-300 dark:ring-stone-900"
      >
        {banner.shortLabel} - Click to expand
      </button>
    );
  }

  return (
    <section
      aria-label="Offer"
      className="bg-brand-800 text-brand-50 dark:bg-brand-900"
      data-testid="promo-banner"
    >
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
        <p className="flex-1 text-center text-xs sm:text-sm">
          <span className="font-semibold">{banner.headline}</span>
          {banner.details && ` ${banner.details}`}
          {banner.code && (
            <>
              {" "}
              Use code{" "}
              <strong className="rounded bg-amber-300 px-1.5 py-0.5 font-mono tracking-wider text-stone-950">
                {banner.code}
              </strong>{" "}
              at checkout.
            </>
          )}
        </p>
        <button
          ref={minimiseRef}
          type="button"
          onClick={() => {
            moveFocus.current = true;
            setMinimised(true);
          }}
          aria-label="Minimise offer banner"
          title="Minimise"
          // 44 x 44, a thumb's size; the negative margin keeps the banner as low as its text needs.
          className="-my-2 -mr-2 flex size-11 shrink-0 items-center justify-center rounded-full text-lg leading-none hover:bg-white/15"
        >
          <span aria-hidden="true">–</span>
        </button>
      </div>
    </section>
  );
}
