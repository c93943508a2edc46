import { useState } from "react";
import type { CodConfirmPage } from "../../../common/cod-confirm.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { PREPAID_LINE_LABEL } from "../../../common/prepaid-incentive.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Notice } from "../../components/notice.tsx";
import { useCodAnswers } from "./use-cod-answers.ts";

const HEADINGS: Record<CodConfirmPage["state"], string> = {
  waiting: "Please confirm your order",
  confirmed: "Your order is confirmed",
  cancelled: "This order is cancelled",
  under_way: "Your order is on its way",
};

/**
 * The order as the shopper placed it and the two answers the shop needs before packing it: Confirm or
 * Cancel. Each answer says what happened, and the page shows the order as it now stands.
 */
export function ConfirmOrderPanel({ initial, token }: { initial: CodConfirmPage; token: string }) {
  const [page, setPage] = useState(initial);
  const [asking, setAsking] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const { busy, error, confirm, cancel, payOnline } = useCodAnswers(initial.number, token, (next, text) => {
    if (next) setPage(next);
    setAsking(false);
    setSaid(text);
  });
  const answer = (action: "confirm" | "cancel") => (action === "confirm" ? confirm() : cancel());

  return (
    <section aria-labelledby="confirm-heading" className="mx-auto max-w-xl py-6">
      <h1 id="confirm-heading" className="font-serif text-3xl font-semibold">
        {HEADINGS[page.state]}
      </h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        Order <span className="font-mono font-medium">{page.number}</span>,{" "}
        {page.paymentMethod === "cod" ? "cash on delivery" : "paid online"} · {page.statusLabel}
      </p>
      {said && (
        <Notice tone="success" className="mt-4">
          {said}
        </Notice>
      )}
      {error && (
        <Notice tone="error" className="mt-4">
          {error}
        </Notice>
      )}
      {page.state === "cancelled" && (
        <p className="mt-4 text-stone-700 dark:text-stone-300">
          Nothing was charged and its items are back on the shelf. To have them after all, please order again.
        </p>
      )}
      {page.state === "waiting" && page.confirmBy && (
        <p className="mt-4 text-stone-700 dark:text-stone-300">
          We pack it once you confirm. If it is not confirmed by{" "}
          <strong className="font-semibold">{formatDateTime(page.confirmBy)}</strong>, it is cancelled.
        </p>
      )}

      <div className={`${cardClass} mt-4`}>
        <h2 className="sr-only">What you ordered</h2>
        <ul className="divide-y divide-stone-200 dark:divide-stone-700">
          {page.lines.map((line) => (
            <li key={line.name} className="flex justify-between gap-4 py-2">
              <span className="min-w-0 break-words">
                {line.quantity} × {line.name}
              </span>
              <span className="tabular-nums">{formatRupees(line.lineTotalPaise)}</span>
            </li>
          ))}
        </ul>
        {page.prepaid && (
          <p className="flex justify-between gap-4 py-1 text-brand-700 dark:text-brand-100">
            <span>
              {page.prepaid.kind === "free_shipping" ? "Shipping, for paying online" : PREPAID_LINE_LABEL}
            </span>
            <span className="tabular-nums">
              {page.prepaid.kind === "free_shipping" ? "Free" : `−${formatRupees(page.prepaid.amountPaise)}`}
            </span>
          </p>
        )}
        <p className="mt-2 flex justify-between border-t border-stone-200 pt-2 font-semibold dark:border-stone-700">
          <span>
            {page.paymentMethod === "cod" && page.state !== "cancelled" ? "To pay on delivery" : "Total"}
          </span>
          <span className="tabular-nums">{formatRupees(page.totalPaise)}</span>
        </p>
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          Delivering to {page.address.name}, {page.address.city}, {page.address.state} {page.address.pin}
        </p>
      </div>

      {page.state === "waiting" && (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Button
            className="min-h-12 text-lg sm:flex-1"
            disabled={busy !== null}
            onClick={() => answer("confirm")}
          >
            {busy === "confirm" ? "Confirming…" : "Confirm my order"}
          </Button>
          {asking ? (
            <div className="flex flex-col gap-2 sm:flex-1">
              <p className="text-sm">Cancel this order? Its items go back on the shelf.</p>
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  className="flex-1"
                  disabled={busy !== null}
                  onClick={() => answer("cancel")}
                >
                  {busy === "cancel" ? "Cancelling…" : "Yes, cancel it"}
                </Button>
                <Button variant="secondary" className="flex-1" onClick={() => setAsking(false)}>
                  Keep it
                </Button>
              </div>
            </div>
          ) : (
            <Button
              variant="secondary"
              className="min-h-12 sm:flex-1"
              disabled={busy !== null}
              onClick={() => setAsking(true)}
            >
              Cancel order
            </Button>
          )}
        </div>
      )}
      {page.state === "waiting" && page.payOnline && (
        <div className="mt-3 flex flex-col gap-1">
          <Button variant="secondary" className="min-h-12" disabled={busy !== null} onClick={payOnline}>
            {busy === "pay"
              ? "Opening payment…"
              : `Pay online instead · ${formatRupees(page.payOnline.totalPaise)}`}
          </Button>
          {page.payOnline.savingPaise > 0 && (
            <p className="text-center text-sm font-medium text-brand-700 dark:text-brand-100">
              Save {formatRupees(page.payOnline.savingPaise)} when you pay online.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
