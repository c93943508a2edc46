import { type ReactNode, useState } from "react";
import { Button } from "../../components/button.tsx";
import { addToCart } from "./add-to-cart.ts";

type AddToCartButtonProps = {
  item: Parameters<typeof addToCart>[0];
  inStock: boolean;
  /** Controls shown on the button's row, such as the quantity. */
  children?: ReactNode;
};

/** Add to cart, disabled while adding or when out of stock; the outcome is announced in the toast. */
export function AddToCartButton({ item, inStock, children }: AddToCartButtonProps) {
  const [adding, setAdding] = useState(false);

  const add = async () => {
    setAdding(true);
    try {
      await addToCart(item);
    } finally {
      setAdding(false);
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-4">
      {children}
      <Button
        size="lg"
        onClick={add}
        disabled={!inStock || adding}
        aria-busy={adding}
        // What it says at once when tapped before the app has started (common/app-loader-script.ts).
        data-tap-label="Adding…"
        // Out of stock greys the button out rather than only fading the brand colour.
        className="min-w-44 disabled:bg-stone-400 disabled:text-stone-900 disabled:opacity-100 dark:disabled:bg-stone-700 dark:disabled:text-stone-300"
      >
        {inStock ? (adding ? "Adding…" : "Add to cart") : "Out of stock"}
      </Button>
    </div>
  );
}
