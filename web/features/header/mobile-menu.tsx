import { lazy, Suspense, useState } from "react";
import type { Product } from "../../../common/catalogue.ts";
import { MenuIcon } from "../../components/icons.tsx";

// The sheet loads on the first tap; the page itself does not wait for it.
const MobileMenuSheet = lazy(() =>
  import("./mobile-menu-sheet.tsx").then((m) => ({ default: m.MobileMenuSheet })),
);

/** Phones and tablets: the whole header in a side sheet, plus Contact Us. */
export function MobileMenu({ products }: { products: Product[] }) {
  const [open, setOpen] = useState(false);
  // Once loaded the sheet stays mounted, so closing it hands focus back to this button.
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
        aria-label="Open menu"
        aria-haspopup="dialog"
        className="rounded-full p-2.5 text-stone-700 hover:bg-stone-100 lg:hidden dark:text-stone-200 dark:hover:bg-stone-800"
      >
        <MenuIcon className="size-6" />
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <MobileMenuSheet products={products} open={open} setOpen={setOpen} />
        </Suspense>
      )}
    </>
  );
}
