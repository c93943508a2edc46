import { type FormEvent, useEffect, useId, useState } from "react";
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
      setError(messageOf(caught));
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
      <DeliveryAnswerText id={`${id}-answer`} answer={answer} error={error} />
    </section>
  );
}

const messageOf = (caught: unknown) =>
  isApiError(caught) ? (caught.fields?.pin ?? caught.message) : "Something went wrong. Please try again.";

/** The answer, or why there is none, in the words the server gives; announced as it changes. */
export function DeliveryAnswerText({
  id,
  answer,
  error,
  className = "mt-2",
  inline = false,
}: {
  id?: string;
  answer: DeliveryAnswer | null;
  error: string | null;
  className?: string;
  /** Inside phrasing content (a label, a paragraph): a block-level span instead of a paragraph. */
  inline?: boolean;
}) {
  const Tag = inline ? "span" : "p";
  return (
    <Tag id={id} role="status" className={`${className} block text-sm empty:hidden`}>
      {error ? (
        <span className="text-red-700 dark:text-red-400">{error}</span>
      ) : answer ? (
        <span
          className={answer.served ? "text-brand-800 dark:text-green-300" : "text-red-700 dark:text-red-400"}
        >
          {answer.message}
        </span>
      ) : null}
    </Tag>
  );
}

/**
 * The same check at checkout, asked as soon as the address has a complete PIN (null: none yet), for the order's
 * total as the checkout priced it; placing the order applies the same rules again.
 */
export function useDeliveryAnswer(pin: string | null, orderPaise: number) {
  const [state, setState] = useState<{ pin: string; answer: DeliveryAnswer | null; error: string | null }>({
    pin: "",
    answer: null,
    error: null,
  });
  useEffect(() => {
    if (!pin) return;
    let current = true;
    const query = new URLSearchParams({ pin, orderPaise: String(orderPaise) });
    api<DeliveryAnswer>(`/delivery/check?${query}`).then(
      (answer) => current && setState({ pin, answer, error: null }),
      (caught) => current && setState({ pin, answer: null, error: messageOf(caught) }),
    );
    return () => {
      current = false;
    };
  }, [pin, orderPaise]);
  // An answer for a PIN no longer in the form is never shown.
  return pin && state.pin === pin ? state : { pin, answer: null, error: null };
}
