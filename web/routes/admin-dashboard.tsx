import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { AdminSummary } from "../../common/admin.ts";
import type { MissedInvoices } from "../../common/schemas/missed-invoices.ts";
import { AdminDashboard, loadDashboardFigures } from "../features/orders/admin-dashboard.tsx";
import { MissedInvoicesPanel } from "../features/orders/missed-invoices.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminUser(request);
  const [summary, orders, missed] = await Promise.all([
    api<AdminSummary>("/admin/summary"),
    loadDashboardFigures(),
    api<MissedInvoices>("/admin/missed-invoices"),
  ]);
  return { summary, orders, missed, isOwner: admin.role === "owner" };
}

const count = new Intl.NumberFormat("en-IN");

export function Component() {
  const { summary, orders, missed, isOwner } = useLoaderData<typeof loader>();
  const figures = [
    {
      label: "Customers",
      value: summary.customers,
      note: `${count.format(summary.newCustomersLast7Days)} new in the last 7 days`,
    },
    {
      label: "Products on sale",
      value: summary.products,
      note: `${count.format(summary.productsOutOfStock)} out of stock`,
    },
    { label: "Combos on sale", value: summary.combos, note: "Bundles in Combos & Gifting" },
    { label: "Admins", value: summary.admins, note: "Accounts with admin access" },
  ];
  const sections = [
    { to: "/admin/orders", title: "Orders", text: "New orders, payments and deliveries." },
    { to: "/admin/questions", title: "Questions", text: "Shoppers' questions waiting for an answer." },
    { to: "/admin/reviews", title: "Reviews", text: "Reviews to publish or hide." },
    { to: "/admin/messages", title: "Messages", text: "Messages sent through the contact form." },
  ];
  return (
    <div className="space-y-8">
      <h1 className="font-serif text-3xl font-semibold">Dashboard</h1>
      <MissedInvoicesPanel missed={missed} isOwner={isOwner} />
      <AdminDashboard figures={orders} />
      <section aria-labelledby="figures">
        <h2 id="figures" className="sr-only">
          Figures
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {figures.map((figure) => (
            <div
              key={figure.label}
              className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900"
            >
              <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">{figure.label}</dt>
              <dd className="mt-1 font-serif text-3xl font-semibold">{count.format(figure.value)}</dd>
              <dd className="mt-1 text-sm text-stone-600 dark:text-stone-400">{figure.note}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="sections">
        <h2 id="sections" className="mb-3 font-serif text-xl font-semibold">
          Work to do
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.to}>
              <Link
                to={section.to}
                className="block h-full rounded-2xl border border-stone-200 bg-white p-5 hover:border-brand-600 dark:border-stone-800 dark:bg-stone-900 dark:hover:border-brand-100"
              >
                <span className="block font-semibold">{section.title}</span>
                <span className="mt-1 block text-sm text-stone-600 dark:text-stone-400">{section.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: dashboard") };
