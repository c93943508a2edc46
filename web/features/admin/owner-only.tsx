import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { RouteError } from "../../components/route-error.tsx";
import { isApiError } from "../../lib/api.ts";

/**
 * The error screen of the owner's pages (codes, audit log): staff who reach one by its address, or whose
 * role changed mid-visit, are told whose page it is and sent back to the admin they can use.
 */
export function OwnerOnlyError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : isApiError(error) ? error.status : 500;
  if (status !== 403) return <RouteError />;
  return (
    <section className="py-16 text-center">
      <h1 className="font-serif text-2xl font-semibold">Only the shop's owner can open this page</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">
        Your staff account covers orders, stock, questions, reviews and messages.
      </p>
      <p className="mt-4">
        <Link to="/admin" className="underline">
          Back to the admin
        </Link>
      </p>
    </section>
  );
}
