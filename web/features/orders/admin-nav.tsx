import { NavLink } from "react-router";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive
      ? "bg-brand-700 text-white dark:bg-brand-600"
      : "text-stone-700 hover:bg-stone-200 dark:text-stone-200 dark:hover:bg-stone-800"
  }`;

/** Links between the order screens of the admin side, until they sit in the shared admin layout. */
export function AdminOrdersNav() {
  return (
    <nav
      aria-label="Admin"
      className="mb-4 flex flex-wrap gap-2 border-b border-stone-200 pb-3 dark:border-stone-800"
    >
      <NavLink to="/admin" end className={linkClass}>
        Dashboard
      </NavLink>
      <NavLink to="/admin/orders" className={linkClass}>
        Orders
      </NavLink>
      <NavLink to="/admin/stock" className={linkClass}>
        Stock
      </NavLink>
    </nav>
  );
}
