import { type ReactNode, useState } from "react";
import { type AddToCartRequest, addToCart } from "./add-to-cart.ts";

type AddToCartButtonProps = {
  request: AddToCartRequest;
  inStock: boolean;
  /** Controls shown on the button's row, such as the quantity. */
  children?: ReactNode;
};

/** Add to cart, disabled while adding or when out of stock; a failure is announced below it. */
export function AddToCartButton({ request, inStock, children }: AddToCartButtonProps) {
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState("");

  const add = async () => {
    setAdding(true);
    setError("");
    try {
      await addToCart(request);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Something went wrong. Please try again.");
    } finally {
      setAdding(false);
    }
  };

  return (
    <div>
      <div className="flex flex-wrap items-end gap-4">
        {children}
        <button
          type="button"
          onClick={add}
          disabled={!inStock || adding}
          aria-busy={adding}
          className="h-11 min-w-44 rounded-lg bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-stone-400 disabled:text-stone-900 dark:disabled:bg-stone-700 dark:disabled:text-stone-300"
        >
          {inStock ? (adding ? "Adding…" : "Add to cart") : "Out of stock"}
        </button>
      </div>
      <p role="alert" className="mt-2 text-sm text-red-700 empty:hidden dark:text-red-300">
        {error}
      </p>
    </div>
  );
}
