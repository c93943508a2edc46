import {
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  NavLink,
  Outlet,
  useLoaderData,
  useRouteError,
} from "react-router";
import { NO_ADMIN_ACCESS } from "../features/auth/auth-errors.ts";
import { ThemeToggle } from "../features/theme/theme-toggle.tsx";
import { isApiError } from "../lib/api.ts";
import type { RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  return { admin: await requireAdminUser(request) };
}

const SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/stock", label: "Stock" },
  { to: "/admin/questions", label: "Questions" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/products", label: "Products", owner: true },
  { to: "/admin/discount-codes", label: "Codes", owner: true },
  { to: "/admin/combos", label: "Combos", owner: true },
  { to: "/admin/shop", label: "Shop", owner: true },
  { to: "/admin/delivery", label: "Delivery", owner: true },
  { to: "/admin/tax", label: "Tax", owner: true },
  { to: "/admin/staff", label: "Staff", owner: true },
  { to: "/admin/audit", label: "Audit log", owner: true },
];

/** Kept out of the shop's frame (root-layout.tsx): staff work in their own, on a phone as on a desk. */
export const handle: RouteHandle = { ownFrame: true };

/**
 * The frame of every admin page: a bar with the way back to the shop and the theme switch, the sections
 * (wrapping onto a second line on a phone rather than scrolling out of view; a column on a wide screen),
 * and the page.
 */
export function Component() {
  const { admin } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-4 py-3 text-stone-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
        <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
          <div className="min-w-0 flex-1">
            <p className="font-serif text-lg font-semibold">Shop admin</p>
            <p className="truncate text-sm text-stone-600 dark:text-stone-400" title={admin.email}>
              {admin.email}
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
      <div className="mx-auto grid max-w-7xl gap-4 px-4 py-4 lg:grid-cols-[12rem_1fr] lg:gap-8 lg:py-6">
        <nav aria-label="Admin sections" className="min-w-0">
          <ul className="flex flex-wrap gap-1.5 lg:flex-col">
            {SECTIONS.filter((section) => !section.owner || admin.role === "owner").map((section) => (
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
        <Link
          to="/admin/login"
          className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 dark:bg-brand-600"
        >
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
