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
import { isApiError } from "../lib/api.ts";
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
  { to: "/admin/discount-codes", label: "Codes", owner: true },
  { to: "/admin/audit", label: "Audit log", owner: true },
];

/** The frame of every admin page; the pages themselves come from the orders, questions, reviews and messages work. */
export function Component() {
  const { admin } = useLoaderData<typeof loader>();
  return (
    <div className="grid gap-6 lg:grid-cols-[13rem_1fr]">
      <aside aria-label="Admin" className="min-w-0 lg:py-2">
        <p className="font-serif text-lg font-semibold">Shop admin</p>
        <p className="truncate text-sm text-stone-600 dark:text-stone-400" title={admin.email}>
          {admin.email}
        </p>
        <nav aria-label="Admin sections" className="mt-3">
          <ul className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-1 lg:mx-0 lg:flex-col lg:overflow-visible lg:px-0">
            {SECTIONS.filter((section) => !section.owner || admin.role === "owner").map((section) => (
              <li key={section.to} className="shrink-0">
                <NavLink
                  to={section.to}
                  end={section.end}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 text-sm font-medium ${
                      isActive
                        ? "bg-brand-700 text-white dark:bg-brand-100 dark:text-brand-900"
                        : "text-stone-700 hover:bg-stone-200 dark:text-stone-300 dark:hover:bg-stone-800"
                    }`
                  }
                >
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="min-w-0">
        <Outlet />
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
    <section className="mx-auto max-w-lg py-10 text-center" aria-labelledby="no-access">
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
    </section>
  );
}
