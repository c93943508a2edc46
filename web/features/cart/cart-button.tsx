import { Link } from "react-router";
import { CartIcon } from "../../components/icons.tsx";

/** The header's cart link with its item-count badge; the count comes from the caller. */
export function CartButton({ count }: { count: number }) {
  const label = count === 0 ? "Cart, empty" : `Cart, ${count} ${count === 1 ? "item" : "items"}`;
  return (
    <Link
      to="/cart"
      aria-label={label}
      title="Cart"
      className="relative inline-flex rounded-full p-2.5 text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
    >
      <CartIcon className="size-6" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1 text-xs font-semibold text-white dark:bg-brand-100 dark:text-brand-900"
        >
          {count > 99 ? "99+" : count}
        </span>
      )}
    </Link>
  );
}
