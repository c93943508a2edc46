import { useEffect, useId, useState } from "react";
import {
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  NavLink,
  Outlet,
  useLoaderData,
  useLocation,
  useRouteError,
} from "react-router";
import { buttonClass } from "../components/button.tsx";
import { ThemeToggle } from "../features/theme/theme-toggle.tsx";
import { isApiError } from "../lib/api.ts";
import { NO_ADMIN_ACCESS } from "../lib/auth-errors.ts";
import type { RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  return { admin: await requireAdminUser(request) };
}

const SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/cod-confirm", label: "To confirm" },
  { to: "/admin/shipping", label: "Shipping" },
  { to: "/admin/cod", label: "Cash on delivery" },
  { to: "/admin/stock", label: "Stock" },
  { to: "/admin/questions", label: "Questions" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/products", label: "Products", owner: true },
  { to: "/admin/discount-codes", label: "Discount codes", owner: true },
  { to: "/admin/combos", label: "Combos", owner: true },
  { to: "/admin/shop", label: "Shop details", owner: true },
  { to: "/admin/settings", label: "Settings", owner: true },
  { to: "/admin/pages", label: "Blog and pages", owner: true },
  { to: "/admin/delivery", label: "Delivery", owner: true },
  { to: "/admin/tax", label: "Tax", owner: true },
  { to: "/admin/staff", label: "Staff", owner: true },
  { to: "/admin/audit", label: "Audit log", owner: true },
];

/** Kept out of the shop's frame (root-layout.tsx): staff work in their own, on a phone as on a desk. */
export const handle: RouteHandle = { ownFrame: true };

/** The section a path belongs to: its own page or one under it (an order under Orders). */
const isIn = (section: (typeof SECTIONS)[number], pathname: string) =>
  pathname === section.to || (!section.end && pathname.startsWith(`${section.to}/`));

/**
 * The frame of every admin page: a bar with the way back to the shop and the theme switch, the sections
 * and the page. On a wide screen the sections are a column beside the page; on a phone, where the owner's
 * fourteen would take half the screen above every page, they fold behind one button naming the current one.
 */
export function Component() {
  const { admin } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const sections = SECTIONS.filter((section) => !section.owner || admin.role === "owner");
  const current = sections.find((section) => isIn(section, pathname));
  // A section chosen from the folded list closes it, as the page it opens takes the screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every new page
  useEffect(() => setOpen(false), [pathname]);
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-4 py-3 text-stone-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AdminBar email={admin.email} />
      <div className="mx-auto grid max-w-7xl gap-4 px-4 py-4 lg:grid-cols-[12rem_1fr] lg:gap-8 lg:py-6">
        <nav aria-label="Admin sections" className="min-w-0">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((isOpen) => !isOpen)}
            className="flex min-h-11 w-full items-center gap-2 rounded-lg border border-stone-300 bg-white px-3 text-left text-sm font-medium lg:hidden dark:border-stone-700 dark:bg-stone-900"
          >
            <span className="text-stone-600 dark:text-stone-400">Sections:</span>
            <span className="flex-1 truncate">{current?.label ?? "Admin"}</span>
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              className={`size-5 shrink-0 transition-transform ${open ? "rotate-180" : ""}`}
            >
              <path d="m6 9 6 6 6-6" />
            </svg>
          </button>
          <ul
            id={listId}
            className={`${open ? "mt-2 flex" : "hidden"} flex-wrap gap-1.5 lg:mt-0 lg:flex lg:flex-col`}
          >
            {sections.map((section) => (
              <li key={section.to}>
                <NavLink
                  to={section.to}
                  end={section.end}
                  className={({ isActive }) =>
                    `flex min-h-11 items-center rounded-lg px-3 text-sm font-medium ${
                      isActive
                        ? "bg-brand-700 text-white dark:bg-brand-100 dark:text-brand-900"
                        : "bg-stone-100 text-stone-700 hover:bg-stone-200 lg:bg-transparent dark:bg-stone-800 dark:text-stone-300 dark:hover:bg-stone-700 lg:dark:bg-transparent"
                    }`
                  }
                >
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 focus:outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The bar above every admin page: whose admin it is, the way back to the shop and the theme switch. */
function AdminBar({ email }: { email: string }) {
  return (
    <header className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
        <div className="min-w-0 flex-1">
          <p className="font-serif text-lg font-semibold">Shop admin</p>
          <p className="truncate text-sm text-stone-600 dark:text-stone-400" title={email}>
            {email}
          </p>
        </div>
        <Link
          to="/"
          aria-label="Back to the shop"
          className="inline-flex min-h-11 shrink-0 items-center rounded-lg px-3 text-sm font-medium text-stone-700 underline-offset-4 hover:underline dark:text-stone-200"
        >
          <span aria-hidden="true">←&nbsp;</span>Shop
        </Link>
        <ThemeToggle className="min-h-11 min-w-11 shrink-0 justify-center" />
      </div>
    </header>
  );
}

/** A signed-in account without the role, or one that lost it mid-visit (an API call answering 401 or 403). */
export function ErrorBoundary() {
  const error = useRouteError();
  const forbidden =
    (isRouteErrorResponse(error) && error.status === 403) || (isApiError(error) && error.status === 403);
  const signedOut = isApiError(error) && error.status === 401;
  if (!forbidden && !signedOut) throw error;
  return (
    <main
      id="main"
      tabIndex={-1}
      className="mx-auto max-w-lg px-4 py-10 text-center focus:outline-none"
      aria-labelledby="no-access"
    >
      <h1 id="no-access" className="font-serif text-2xl font-semibold">
        {signedOut ? "Please sign in again" : "No admin access"}
      </h1>
      <p className="mt-3 text-stone-700 dark:text-stone-300" role="alert">
        {signedOut ? "Your session has ended." : NO_ADMIN_ACCESS}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to="/admin/login" className={buttonClass({ size: "lg" })}>
          {signedOut ? "Sign in" : "Sign in with an admin account"}
        </Link>
        <Link
          to="/"
          className="rounded-lg border border-stone-300 px-5 py-2.5 font-medium hover:bg-stone-100 dark:border-stone-600 dark:hover:bg-stone-800"
        >
          Back to the shop
        </Link>
      </div>
    </main>
  );
}
