import { Link } from "react-router";
import { formatRupees } from "../../../common/money.ts";
import { STATUS_LABELS } from "../../../common/order-lifecycle.ts";
import type { DashboardFigures } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";
import { api } from "../../lib/api.ts";
import { RevenueChart } from "./revenue-chart.tsx";

/** For the /admin loader: the figures this component shows. */
export const loadDashboardFigures = () => api<DashboardFigures>("/admin/dashboard");

/** The order side of the admin dashboard: sales today and this week, 30 days of revenue, orders by status. */
export function AdminDashboard({ figures }: { figures: DashboardFigures }) {
  const stats = [
    { label: "Orders today", value: String(figures.today.orders) },
    { label: "Revenue today", value: formatRupees(figures.today.revenuePaise) },
    { label: "Orders this week", value: String(figures.week.orders) },
    { label: "Revenue this week", value: formatRupees(figures.week.revenuePaise) },
  ];
  return (
    <div className="space-y-6">
      <section aria-labelledby="sales-heading">
        <h2 id="sales-heading" className="sr-only">
          Sales
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {stats.map((stat) => (
            <div key={stat.label} className={cardClass}>
              <dt className="text-sm text-stone-600 dark:text-stone-400">{stat.label}</dt>
              <dd className="mt-1 text-2xl font-semibold">{stat.value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
          Days are Indian days; the week starts on Monday. Cancelled, returned, refunded and unpaid orders are
          not counted.
        </p>
      </section>
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <section aria-labelledby="revenue-heading" className={cardClass}>
          <h2 id="revenue-heading" className="mb-3 font-serif text-xl font-semibold">
            Revenue, last 30 days
          </h2>
          <RevenueChart days={figures.revenueByDay} />
        </section>
        <section aria-labelledby="status-heading" className={cardClass}>
          <h2 id="status-heading" className="mb-3 font-serif text-xl font-semibold">
            Orders by status
          </h2>
          <ul className="divide-y divide-stone-200 text-sm dark:divide-stone-700">
            {figures.byStatus.map((entry) => (
              <li key={entry.status} className="flex justify-between py-1.5">
                <Link
                  to={`/admin/orders?status=${entry.status}`}
                  className="underline-offset-2 hover:underline"
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
              className="font-medium text-brand-700 underline dark:text-brand-100"
            >
              {figures.lowStock} item{figures.lowStock === 1 ? "" : "s"} low on stock
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
