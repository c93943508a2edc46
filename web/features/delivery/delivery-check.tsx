import { type FormEvent, useId, useState } from "react";
import type { DeliveryCheck as DeliveryAnswer } from "../../../common/delivery-check.ts";
import { api, isApiError } from "../../lib/api.ts";

const input =
  "block w-full min-w-0 rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-100";
const button =
  "inline-flex min-h-10 shrink-0 items-center justify-center rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-60 dark:border-brand-100 dark:text-brand-100 dark:hover:bg-brand-900/40";

/**
 * "Check delivery" on a product or combo page: a PIN in, the server's answer out, from the rules the
 * checkout and the order use (where, by when, whether cash on delivery is taken).
 */
export function DeliveryCheck({ item }: { item: { product: string } | { combo: string } }) {
  const id = useId();
  const [pin, setPin] = useState("");
  const [answer, setAnswer] = useState<DeliveryAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  // The server checks the PIN and answers with the shop's one set of messages, so the product page
  // loads none of the rules' code (every route adds to the first page's JavaScript).
  async function check(event: FormEvent) {
    event.preventDefault();
    setAnswer(null);
    setError(null);
    setChecking(true);
    try {
      // An empty PIN is sent too, so the server's message answers it.
      const query = new URLSearchParams({ pin: pin.replace(/\s/g, ""), ...item });
      setAnswer(await api<DeliveryAnswer>(`/delivery/check?${query}`));
    } catch (caught) {
      setError(
        isApiError(caught)
          ? (caught.fields?.pin ?? caught.message)
          : "Something went wrong. Please try again.",
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-lg border border-stone-200 p-4 dark:border-stone-800"
    >
      <h2 id={`${id}-heading`} className="font-medium">
        Check delivery
      </h2>
      <form onSubmit={check} noValidate className="mt-2 flex gap-2">
        <label htmlFor={`${id}-pin`} className="sr-only">
          PIN code
        </label>
        <input
          id={`${id}-pin`}
          name="pin"
          value={pin}
          onChange={(event) => setPin(event.target.value)}
          placeholder="PIN code"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={6}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-answer`}
          className={input}
        />
        <button type="submit" disabled={checking} className={button}>
          {checking ? "Checking…" : "Check"}
        </button>
      </form>
      <p id={`${id}-answer`} role="status" className="mt-2 text-sm empty:hidden">
        {error ? (
          <span className="text-red-700 dark:text-red-400">{error}</span>
        ) : answer ? (
          <span
            className={
              answer.served ? "text-brand-800 dark:text-green-300" : "text-red-700 dark:text-red-400"
            }
          >
            {answer.message}
          </span>
        ) : null}
      </p>
    </section>
  );
}
