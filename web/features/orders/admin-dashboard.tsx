import { Link } from "react-router";
import { STATUS_LABELS } from "../../../common/order-lifecycle.ts";
import type { DashboardFigures } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";
import { api } from "../../lib/api.ts";

/** For the /admin loader: the figures this component shows. */
export const loadDashboardFigures = () => api<DashboardFigures>("/admin/dashboard");

/**
 * The order side of the admin dashboard: orders by status and stock running low. The sales (per day, this
 * week, against the period before) are in "Sales at a glance", which the owner may keep to herself
 * (docs/decisions/080), so they are not repeated here for everyone.
 */
export function AdminDashboard({ figures }: { figures: DashboardFigures }) {
  return (
    <section aria-labelledby="status-heading" className={cardClass}>
      <h2 id="status-heading" className="mb-3 font-serif text-xl font-semibold">
        Orders by status
      </h2>
      <ul className="grid gap-x-8 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {figures.byStatus.map((entry) => (
          <li
            key={entry.status}
            className="flex items-center justify-between border-b border-stone-200 dark:border-stone-700"
          >
            <Link
              to={`/admin/orders?status=${entry.status}`}
              className="inline-flex min-h-11 items-center underline-offset-2 hover:underline"
            >
              {STATUS_LABELS[entry.status]}
            </Link>
            <span className="font-medium">{entry.count}</span>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">
        <Link
          to="/admin/stock?low=1"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline dark:text-brand-100"
        >
          {figures.lowStock} item{figures.lowStock === 1 ? "" : "s"} low on stock
        </Link>
      </p>
    </section>
  );
}
