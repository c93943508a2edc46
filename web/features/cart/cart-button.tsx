import { Link } from "react-router";
import { useCartCount } from "./use-cart-count.ts";

/** The header's cart link with its item-count badge. */
export function CartButton() {
  const count = useCartCount();
  const label = count === 1 ? "Cart, 1 item" : `Cart, ${count} items`;
  return (
    <Link
      to="/cart"
      aria-label={label}
      className="relative inline-flex size-11 items-center justify-center rounded-full text-brand-800 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path
          d="M3 4h2l2.4 11.2a1 1 0 0 0 1 .8h9.2a1 1 0 0 0 1-.76L20.5 8H6.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="9.5" cy="19.5" r="1.3" />
        <circle cx="17" cy="19.5" r="1.3" />
      </svg>
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-amber-500 px-1 text-xs font-bold text-stone-950"
        >
          {count > 99 ? "99+" : count}
        </span>
      )}
    </Link>
  );
}
