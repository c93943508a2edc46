import { Form, Link, type LoaderFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import { formatMobile } from "../../common/india.ts";
import { formatDateTime } from "../../common/india-time.ts";
import { describeTotal } from "../../common/lists.ts";
import { formatRupees } from "../../common/money.ts";
import { ORDER_STATUSES, STATUS_LABELS } from "../../common/order-lifecycle.ts";
import type { AdminOrderPage } from "../../common/orders.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { Field, Input, Options, Select } from "../components/field.tsx";
import { RouteError } from "../components/route-error.tsx";
import { StatusBadge } from "../features/orders/status-badge.tsx";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

const FILTERS = ["status", "from", "to", "q"] as const;

const filtersOf = (params: URLSearchParams) =>
  Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])) as Record<
    (typeof FILTERS)[number],
    string
  >;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  const params = new URL(request.url).searchParams;
  return api<AdminOrderPage>(
    `/admin/orders${toQuery({ ...filtersOf(params), after: params.get("after"), before: params.get("before") })}`,
  );
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { orders, total, next, previous } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const filters = filtersOf(params);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-serif text-3xl font-semibold">Orders</h1>
        <a
          href={`/api/admin/orders/export.csv${toQuery(filters)}`}
          download
          className={buttonClass({ variant: "secondary" })}
        >
          Export CSV
        </a>
      </div>

      <Form
        method="get"
        role="search"
        aria-label="Filter orders"
        className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_auto_auto_auto_auto]"
      >
        <Field id="filter-q" label="Order number, e-mail, name or phone">
          <Input name="q" type="search" defaultValue={filters.q} />
        </Field>
        <Field id="filter-status" label="Status">
          <Select name="status" defaultValue={filters.status}>
            <option value="">Any status</option>
            <Options values={ORDER_STATUSES} labels={STATUS_LABELS} />
          </Select>
        </Field>
        <Field id="filter-from" label="From">
          <Input name="from" type="date" defaultValue={filters.from} />
        </Field>
        <Field id="filter-to" label="To">
          <Input name="to" type="date" defaultValue={filters.to} />
        </Field>
        <div className="flex items-end gap-2">
          <Button type="submit">Filter</Button>
          <Link to="/admin/orders" className={buttonClass({ variant: "secondary" })}>
            Clear
          </Link>
        </div>
      </Form>

      <p className="mt-4 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {describeTotal(total, "order", "orders")}
      </p>
      {orders.length > 0 && (
        // Below lg the seven columns cannot fit: each order is a card with the same facts.
        <ul aria-label="Orders" className="mt-2 space-y-3 lg:hidden">
          {orders.map((order) => (
            <li
              key={order.number}
              className="relative rounded-lg border border-stone-200 bg-white p-3 text-sm dark:border-stone-700 dark:bg-stone-900"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link
                  to={`/admin/orders/${order.number}`}
                  className="font-medium text-brand-700 underline after:absolute after:inset-0 dark:text-brand-100"
                >
                  {order.number}
                </Link>
                <StatusBadge status={order.status} parcelBack={order.parcelBack} />
              </div>
              <p className="mt-1 font-medium">{order.customerName}</p>
              <p className="text-xs break-words text-stone-600 dark:text-stone-400">
                {order.customerEmail ?? "account deleted"} · {formatMobile(order.phone)} · {order.city}
              </p>
              <p className="mt-1 flex flex-wrap justify-between gap-x-3 text-stone-700 dark:text-stone-300">
                <span>{formatDateTime(order.placedAt)}</span>
                <span>
                  {order.itemCount} {order.itemCount === 1 ? "item" : "items"} ·{" "}
                  <span className="font-medium">{formatRupees(order.totalPaise)}</span> ·{" "}
                  {order.paymentMethod === "cod" ? "COD" : "Online"}
                  {order.paid ? ", paid" : ""}
                </span>
              </p>
            </li>
          ))}
        </ul>
      )}
      {orders.length > 0 && (
        <div className="relative mt-2 hidden overflow-x-auto rounded-lg border border-stone-200 lg:block dark:border-stone-700">
          <table className="w-full min-w-[48rem] text-left text-sm">
            <thead className="bg-stone-100 dark:bg-stone-800">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Order
                </th>
                <th scope="col" className="px-3 py-2">
                  Placed
                </th>
                <th scope="col" className="px-3 py-2">
                  Customer
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Items
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Total
                </th>
                <th scope="col" className="px-3 py-2">
                  Payment
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 bg-white dark:divide-stone-700 dark:bg-stone-900">
              {orders.map((order) => (
                <tr key={order.number}>
                  <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap">
                    <Link
                      to={`/admin/orders/${order.number}`}
                      className="text-brand-700 underline dark:text-brand-100"
                    >
                      {order.number}
                    </Link>
                  </th>
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(order.placedAt)}</td>
                  <td className="px-3 py-2">
                    {order.customerName}
                    <span className="block text-xs text-stone-600 dark:text-stone-400">
                      {order.customerEmail ?? "account deleted"} · {formatMobile(order.phone)} · {order.city}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-right">{order.itemCount}</td>
                  <td className="px-3 py-2 text-right">{formatRupees(order.totalPaise)}</td>
                  <td className="px-3 py-2">
                    {order.paymentMethod === "cod" ? "COD" : "Online"}
                    {order.paid ? ", paid" : ""}
                  </td>
                  <td className="px-3 py-2">
                    <StatusBadge status={order.status} parcelBack={order.parcelBack} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(next || previous) && (
        <nav aria-label="Pages of orders" className="mt-4 flex justify-center gap-3 text-sm">
          {previous && (
            <Link
              to={toQuery({ ...filters, before: previous })}
              className={buttonClass({ variant: "secondary" })}
            >
              ← Newer
            </Link>
          )}
          {next && (
            <Link to={toQuery({ ...filters, after: next })} className={buttonClass({ variant: "secondary" })}>
              Older →
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: orders") };
