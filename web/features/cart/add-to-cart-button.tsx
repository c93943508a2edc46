import { useState } from "react";
import { addToCart } from "./add-to-cart.ts";

/** A plain Add to cart button for a product or combo page. */
export function AddToCartButton({
  item,
  inStock,
}: {
  item: { id: string; kind: "product" | "combo"; name: string };
  inStock: boolean;
}) {
  const [adding, setAdding] = useState(false);
  if (!inStock) {
    return (
      <p className="mt-6 font-medium text-stone-600 dark:text-stone-300" role="note">
        Out of stock
      </p>
    );
  }
  return (
    <button
      type="button"
      disabled={adding}
      onClick={async () => {
        setAdding(true);
        try {
          await addToCart(item);
        } finally {
          setAdding(false);
        }
      }}
      className="mt-6 inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-70 dark:bg-brand-600 dark:hover:bg-brand-700"
    >
      Add to cart
    </button>
  );
}
