import { Link } from "react-router";
import type { CheckoutData } from "./use-checkout.ts";

/** What in the cart stops the order (an item gone or short, a code refused), with the way back to fix it. */
export function CartProblems({ pricing }: { pricing: CheckoutData["pricing"] }) {
  if (pricing.problems.length === 0 && !pricing.discountProblem) return null;
  return (
    <div
      role="alert"
      className="my-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100"
    >
      <ul className="list-disc space-y-1 pl-4">
        {pricing.problems.map((problem) => (
          <li key={problem.itemId}>{problem.message}</li>
        ))}
        {pricing.discountProblem && (
          <li>
            {pricing.discountProblem.message}: {pricing.discountProblem.code}. Remove the code in your cart to
            continue.
          </li>
        )}
      </ul>
      <Link to="/cart" className="mt-2 inline-block font-medium underline">
        Go to your cart
      </Link>
    </div>
  );
}
