import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import type { Product } from "../../../common/catalogue.ts";
import { formatRupees } from "../../../common/money.ts";
import { ChevronDownIcon } from "../../components/icons.tsx";
import { EMPTY_MENU_TEXT } from "../../lib/header-menus.ts";

type CategoryMenuProps = {
  label: string;
  products: Pick<Product, "slug" | "name" | "pricePaise" | "image">[];
  all: { to: string; label: string };
};

/** A desktop menu (disclosure pattern): the button opens a panel of product links. */
export function CategoryMenu({ label, products, all }: CategoryMenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const itemRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!itemRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutsidePointer);
    return () => document.removeEventListener("pointerdown", closeOnOutsidePointer);
  }, [open]);

  const close = () => setOpen(false);
  return (
    <li
      ref={itemRef}
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded-full px-3 py-2 text-sm font-medium text-stone-700 hover:bg-brand-50 hover:text-brand-800 aria-expanded:bg-brand-50 aria-expanded:text-brand-800 dark:text-stone-200 dark:hover:bg-stone-800 dark:hover:text-white dark:aria-expanded:bg-stone-800 dark:aria-expanded:text-white"
      >
        {label}
        <ChevronDownIcon className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute top-full left-1/2 z-40 mt-2 w-72 -translate-x-1/2 rounded-xl border border-stone-200 bg-white p-2 shadow-xl dark:border-stone-700 dark:bg-stone-900"
      >
        {products.length === 0 ? (
          <p className="px-3 py-2 text-sm text-stone-600 dark:text-stone-400">{EMPTY_MENU_TEXT.desktop}</p>
        ) : (
          <ul aria-label={label}>
            {products.map((product) => (
              <li key={product.slug}>
                <Link
                  to={`/product/${product.slug}`}
                  onClick={close}
                  className="flex items-center gap-3 rounded-lg px-2 py-1.5 text-sm hover:bg-brand-50 dark:hover:bg-stone-800"
                >
                  <img
                    src={product.image.small}
                    width={40}
                    height={40}
                    alt=""
                    loading="lazy"
                    decoding="async"
                    className="size-10 rounded-md bg-stone-100 dark:bg-stone-800"
                  />
                  <span className="flex-1 font-medium">{product.name}</span>
                  <span className="text-stone-600 dark:text-stone-400">
                    {formatRupees(product.pricePaise)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Link
          to={all.to}
          onClick={close}
          className="mt-1 block rounded-lg border-t border-stone-100 px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-stone-800 dark:text-brand-100 dark:hover:bg-stone-800"
        >
          {all.label} →
        </Link>
      </div>
    </li>
  );
}
