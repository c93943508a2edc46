import { Link, type LoaderFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import type { OrderDetail } from "../../common/orders.ts";
import { withRedirect } from "../../common/redirect-target.ts";
import { TaxDocumentLinks } from "../components/tax-document-links.tsx";
import { cardClass, primaryButton, secondaryButton } from "../features/orders/buttons.ts";
import { DeliveryCard } from "../features/orders/delivery-card.tsx";
import { OrderBody } from "../features/orders/order-body.tsx";
import { RouteError } from "../features/orders/route-error.tsx";
import { StatusBadge } from "../features/orders/status-badge.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { formatDateTime } from "../lib/format-date.ts";

type GuestOrderView = { order: OrderDetail; email: string; inAccount: boolean; hasAccount: boolean };

/** A guest's order, opened from the link in its e-mail: the token in the address is the only key. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return api<GuestOrderView>(
    `/guest-orders/${encodeURIComponent(params.number ?? "")}?token=${encodeURIComponent(token)}`,
  );
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { order, email, inAccount, hasAccount } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const placedNow = search.get("placed") === "1";
  const signUp = `/signup?${new URLSearchParams({ email, redirectTo: "/orders" })}`;

  return (
    <div>
      {placedNow && (
        <p
          role="status"
          className="mt-3 rounded-md bg-brand-50 p-3 text-brand-800 dark:bg-brand-900/50 dark:text-brand-100"
        >
          Thank you! Your order is placed. We have e-mailed a confirmation with a link to this page to{" "}
          <strong>{email}</strong>.
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-3xl font-semibold">Order {order.number}</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Placed on <time dateTime={order.placedAt}>{formatDateTime(order.placedAt)}</time>
          </p>
        </div>
        <StatusBadge status={order.status} />
      </div>

      <OrderBody
        order={order}
        aside={
          <>
            <DeliveryCard order={order}>
              <TaxDocumentLinks
                base={`/api/guest-orders/${order.number}`}
                search={`?${new URLSearchParams({ token: search.get("token") ?? "" })}`}
                documents={order.documents}
              />
            </DeliveryCard>
            <section aria-labelledby="account-heading" className={cardClass}>
              <h2 id="account-heading" className="font-serif text-xl font-semibold">
                {inAccount ? "In your account" : "Keep your orders together"}
              </h2>
              {inAccount ? (
                <>
                  <p className="mt-2 text-sm">This order is in My Orders of the account for {email}.</p>
                  <Link to="/orders" className={`${secondaryButton} mt-3`}>
                    My Orders
                  </Link>
                </>
              ) : hasAccount ? (
                <>
                  <p className="mt-2 text-sm">
                    Sign in with {email} and this order joins your My Orders, with the rest.
                  </p>
                  <Link to={withRedirect("/login", "/orders")} className={`${primaryButton} mt-3`}>
                    Sign in
                  </Link>
                </>
              ) : (
                <>
                  <p className="mt-2 text-sm">
                    Create an account with {email}: once you confirm it, this order and your next ones are in
                    My Orders, and checkout remembers your address.
                  </p>
                  <Link to={signUp} className={`${primaryButton} mt-3`}>
                    Create an account
                  </Link>
                </>
              )}
            </section>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              To cancel or change this order,{" "}
              <Link to="/contact" className="underline">
                contact us
              </Link>{" "}
              with its number. Keep the e-mail with this page's link: anyone who has it can see the order.
            </p>
          </>
        }
      />
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Your order") };
