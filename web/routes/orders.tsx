import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { formatDate } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import type { OrderPage } from "../../common/orders.ts";
import { buttonClass } from "../components/button.tsx";
import { cardClass, Thumbnail } from "../components/card.tsx";
import { RouteError } from "../components/route-error.tsx";
import { OrderProgress } from "../features/orders/order-progress.tsx";
import { StatusBadge } from "../features/orders/status-badge.tsx";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { listPositionOf } from "../lib/list-position.ts";
import { requireSessionUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSessionUser(request);
  return api<OrderPage>(`/orders${toQuery(listPositionOf(new URL(request.url)))}`);
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { orders, next, previous } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">My Orders</h1>
      {orders.length === 0 ? (
        <div className="py-12 text-center">
          <p>You have not placed any orders yet.</p>
          <Link to="/" className={`${buttonClass()} mt-4`}>
            Start shopping
          </Link>
        </div>
      ) : (
        <ul className="mt-6 space-y-4">
          {orders.map((order) => (
            <li key={order.number} className={cardClass}>
              <article aria-labelledby={`order-${order.number}`}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div>
                    <h2 id={`order-${order.number}`} className="font-semibold">
                      <Link to={`/orders/${order.number}`} className="underline-offset-2 hover:underline">
                        Order {order.number}
                      </Link>
                    </h2>
                    <p className="text-sm text-stone-600 dark:text-stone-400">
                      Placed on <time dateTime={order.placedAt}>{formatDate(order.placedAt)}</time> ·{" "}
                      {formatRupees(order.totalPaise)}
                    </p>
                  </div>
                  <StatusBadge status={order.status} parcelBack={order.parcelBack} />
                </div>
                <ul className="mt-3 flex flex-wrap gap-3">
                  {order.lines.map((line) => (
                    <li key={line.itemId} className="flex items-center gap-2 text-sm">
                      <Thumbnail
                        src={line.image}
                        className="size-10 rounded bg-stone-100 object-cover dark:bg-stone-800"
                        size={40}
                      />
                      <span>
                        {line.quantity} × {line.name}
                      </span>
                    </li>
                  ))}
                </ul>
                <div className="mt-3">
                  <OrderProgress order={order} />
                </div>
                <Link
                  to={`/orders/${order.number}`}
                  className="mt-3 inline-block text-sm font-medium text-brand-700 underline dark:text-brand-100"
                  aria-label={`View order ${order.number}`}
                >
                  View order
                </Link>
              </article>
            </li>
          ))}
        </ul>
      )}
      {(previous || next) && (
        <nav aria-label="Pages of orders" className="mt-6 flex justify-center gap-4">
          {previous && <Link to={toQuery({ before: previous })}>← Newer orders</Link>}
          {next && <Link to={toQuery({ after: next })}>Older orders →</Link>}
        </nav>
      )}
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Your orders") };
