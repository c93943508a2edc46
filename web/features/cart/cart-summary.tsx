import { Link } from "react-router";
import type { PricedCart } from "../../../common/cart.ts";
import { shippingFor, thresholdValue } from "../../../common/cart.ts";
import { formatRupees } from "../../../common/money.ts";
import { useShopData } from "../../lib/shop-data.ts";

/** Subtotal, discount, shipping by the shop's rule (checkout prices it again), total, and the way on. */
export function CartSummary({ cart }: { cart: PricedCart }) {
  const { shipping } = useShopData().config;
  // The owner's rule says whether the threshold counts the goods before or after the discount.
  const counted = thresholdValue(shipping, cart.subtotalPaise, cart.totalPaise);
  const shippingPaise = shippingFor(counted, shipping, cart.itemCount > 0);
  const toFreeShipping = shipping.freeShippingMinPaise - counted;
  const row = "flex justify-between gap-4 py-1";
  return (
    <div>
      <dl className="py-3 text-sm">
        <div className={row}>
          <dt>
            Subtotal ({cart.itemCount} {cart.itemCount === 1 ? "item" : "items"})
          </dt>
          <dd data-testid="cart-subtotal">{formatRupees(cart.subtotalPaise)}</dd>
        </div>
        <div className={row}>
          <dt>Discount{cart.discount ? ` (${cart.discount.code})` : ""}</dt>
          <dd
            data-testid="cart-discount"
            className={cart.discountPaise > 0 ? "text-brand-700 dark:text-brand-100" : ""}
          >
            {cart.discountPaise > 0 ? `−${formatRupees(cart.discountPaise)}` : formatRupees(0)}
          </dd>
        </div>
        <div className={`${row} flex-wrap`}>
          <dt>Shipping</dt>
          <dd data-testid="cart-shipping">{shippingPaise === 0 ? "Free" : formatRupees(shippingPaise)}</dd>
          {/* A second description of the shipping line: a <dl> may hold only groups of <dt> and <dd>. */}
          {shippingPaise > 0 && (
            <dd className="basis-full text-stone-600 dark:text-stone-400">
              Add {formatRupees(toFreeShipping)} more for free shipping.
            </dd>
          )}
        </div>
        <div
          className={`${row} mt-2 border-t border-stone-200 pt-3 text-base font-semibold dark:border-stone-700`}
        >
          <dt>Total</dt>
          <dd data-testid="cart-total">{formatRupees(cart.totalPaise + shippingPaise)}</dd>
        </div>
      </dl>
      {cart.checkoutBlocker === null ? (
        <Link
          to="/checkout"
          className="flex min-h-12 w-full items-center justify-center rounded-lg bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 dark:bg-brand-600 dark:hover:bg-brand-700"
        >
          Checkout
        </Link>
      ) : (
        <>
          <button
            type="button"
            disabled
            aria-describedby="checkout-blocked"
            className="flex min-h-12 w-full cursor-not-allowed items-center justify-center rounded-lg bg-stone-300 px-6 font-semibold text-stone-600 dark:bg-stone-700 dark:text-stone-300"
          >
            Checkout
          </button>
          <p id="checkout-blocked" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {cart.checkoutBlocker}
          </p>
        </>
      )}
      <Link to="/" className="mt-3 block text-center text-sm underline">
        Continue shopping
      </Link>
    </div>
  );
}
