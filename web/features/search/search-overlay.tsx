import { useState } from "react";
import type { Product } from "../../../common/catalogue.ts";
import { SearchIcon } from "../../components/icons.tsx";
import { LazyDialog } from "../../components/lazy-dialog.tsx";
import { SearchBox } from "./search-box.tsx";

/** The header's search button: a pop-up search, the only one on phones (the inline bar is md and up). */
export function SearchOverlay({ products }: { products: Product[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label="Search products"
        aria-haspopup="dialog"
        className="rounded-full p-2.5 text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
      >
        <SearchIcon className="size-6" />
      </button>
      <LazyDialog open={open} onClose={() => setOpen(false)} title="Search products" variant="top">
        {open && <SearchBox products={products} autoFocus inline onChoose={() => setOpen(false)} />}
      </LazyDialog>
    </>
  );
}
