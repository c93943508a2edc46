import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { isApiError } from "../lib/api.ts";

/** What an order screen shows when its data cannot be loaded: no access, not found, or a plain retry. */
export function RouteError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : isApiError(error) ? error.status : 500;
  // A guest order's link that opens nothing (altered, cut short, another order's): the API says what to do.
  const badLink = isApiError(error) && error.code === "order_link_not_found";
  const [title, message] = badLink
    ? ["This link does not open an order", error.message]
    : isApiError(error) && status === 429
      ? ["Please wait a little", error.message]
      : status === 403
        ? ["This page is for the shop's staff", "Sign in with an admin account to open it."]
        : status === 404
          ? ["We couldn't find that order", "Check the order number, or find it in My Orders."]
          : status === 401
            ? ["Please sign in again", "Your session has ended."]
            : ["Something went wrong", "Please try again in a moment."];
  return (
    <section className="py-16 text-center">
      <h1 className="font-serif text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">{message}</p>
      <p className="mt-4 flex justify-center gap-4">
        {status === 404 && (
          <Link to="/orders" className="underline">
            My Orders
          </Link>
        )}
        <Link to="/" className="underline">
          Back to the shop
        </Link>
      </p>
    </section>
  );
}
