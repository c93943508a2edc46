import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/button.tsx";
import { showToast } from "../../components/toast.tsx";
import { CartLineItem } from "./cart-line-item.tsx";
import {
  applyDiscountCode,
  type CartResult,
  changeQuantity,
  clearItems,
  ensureCartStarted,
  removeDiscountCode,
  removeItem,
} from "./cart-store.ts";
import { CartSummary } from "./cart-summary.tsx";
import { DiscountForm } from "./discount-form.tsx";
import { useCart } from "./use-cart.ts";

function reportFailure(result: CartResult) {
  if (!result.ok) showToast(result.message, "error");
}

export function CartView() {
  const { cart, mode, notice, loadError } = useCart();
  const [confirmingClear, setConfirmingClear] = useState(false);

  if (mode === "starting" && loadError) {
    return (
      <section className="py-16 text-center">
        <h1 className="font-serif text-2xl font-semibold">We couldn't load your cart</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">{loadError}</p>
        <Button size="lg" onClick={() => void ensureCartStarted()} className="mt-4">
          Try again
        </Button>
      </section>
    );
  }

  if (cart.lines.length === 0) {
    return (
      <section className="py-16 text-center" aria-labelledby="cart-heading">
        <h1 id="cart-heading" className="font-serif text-3xl font-semibold">
          Your cart is empty
        </h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          Natural hair oils, face packs, bath powders and nutrition mixes are waiting for you.
        </p>
        <Link
          to="/"
          className="mt-6 inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 dark:bg-brand-600"
        >
          Continue shopping
        </Link>
      </section>
    );
  }

  return (
    <section aria-labelledby="cart-heading">
      <h1 id="cart-heading" className="mb-4 font-serif text-3xl font-semibold">
        Your cart
      </h1>
      {loadError && (
        <p
          role="alert"
          className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Prices could not be refreshed just now: {loadError}
        </p>
      )}
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div>
          <ul aria-label="Items in your cart">
            {cart.lines.map((line) => (
              <CartLineItem
                key={line.id}
                line={line}
                onQuantity={(quantity) => void changeQuantity(line.id, quantity).then(reportFailure)}
                onRemove={() => void removeItem(line.id).then(reportFailure)}
              />
            ))}
          </ul>
          <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
            {confirmingClear ? (
              <>
                <span>Remove everything from your cart?</span>
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => {
                    setConfirmingClear(false);
                    void clearItems().then(reportFailure);
                  }}
                >
                  Yes, clear cart
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  // The safe choice takes the focus the vanished "Clear cart" button had.
                  ref={(button) => button?.focus()}
                  onClick={() => setConfirmingClear(false)}
                >
                  Keep items
                </Button>
              </>
            ) : (
              <button
                type="button"
                onClick={() => setConfirmingClear(true)}
                className="min-h-11 rounded px-2 underline hover:text-red-700 dark:hover:text-red-400"
              >
                Clear cart
              </button>
            )}
          </div>
        </div>
        <aside
          aria-labelledby="summary-heading"
          className="h-fit rounded-xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900"
        >
          <h2 id="summary-heading" className="mb-3 font-serif text-xl font-semibold">
            Order summary
          </h2>
          <DiscountForm
            discount={cart.discount}
            notice={notice}
            onApply={applyDiscountCode}
            onRemove={removeDiscountCode}
          />
          <CartSummary cart={cart} />
        </aside>
      </div>
    </section>
  );
}
