import type { CodConfirmPage } from "../../../common/cod-confirm.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import type { OrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { Notice } from "../../components/notice.tsx";
import { useCodAnswers } from "./use-cod-answers.ts";

/**
 * On the order's own page (the thank-you page straight after "Place order", later My Orders or a guest's link):
 * a cash-on-delivery order that waits for the shopper's confirmation says so, with the deadline, and is
 * confirmed, or paid online instead, right there through the confirmation link's calls (issue 41). Nothing is
 * drawn for an order that waits for no answer.
 */
export function WaitingCodCard({
  order,
  payOnline,
  onAnswered,
}: {
  order: Pick<OrderDetail, "number" | "codConfirm">;
  /** The confirmation page's offer to pay online instead; null when online payment is off. */
  payOnline: CodConfirmPage["payOnline"];
  onAnswered: (said: string) => void;
}) {
  if (!order.codConfirm) return null;
  return (
    <CodQuestion
      number={order.number}
      token={order.codConfirm.token}
      confirmBy={order.codConfirm.confirmBy}
      payOnline={payOnline}
      onAnswered={onAnswered}
    />
  );
}

function CodQuestion({
  number,
  token,
  confirmBy,
  payOnline,
  onAnswered,
}: {
  number: string;
  token: string;
  confirmBy: string;
  payOnline: CodConfirmPage["payOnline"];
  onAnswered: (said: string) => void;
}) {
  const {
    busy,
    error,
    confirm,
    payOnline: pay,
  } = useCodAnswers(number, token, (_page, said) => onAnswered(said));
  return (
    <section
      aria-labelledby="cod-confirm-heading"
      className="mt-4 rounded-lg border-2 border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <h2 id="cod-confirm-heading" className="font-serif text-xl font-semibold">
        Please confirm your order
      </h2>
      <p className="mt-1">
        Cash-on-delivery orders are packed once you confirm. If this order is not confirmed by{" "}
        <strong className="font-semibold">
          <time dateTime={confirmBy}>{formatDateTime(confirmBy)}</time>
        </strong>
        , it is cancelled.
      </p>
      {error && (
        <Notice tone="error" className="mt-3">
          {error}
        </Notice>
      )}
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button className="min-h-12 text-lg sm:flex-1" disabled={busy !== null} onClick={confirm}>
          {busy === "confirm" ? "Confirming…" : "Confirm my order"}
        </Button>
        {payOnline && (
          <Button variant="secondary" className="min-h-12 sm:flex-1" disabled={busy !== null} onClick={pay}>
            {busy === "pay"
              ? "Opening payment…"
              : `Pay online instead · ${formatRupees(payOnline.totalPaise)}`}
          </Button>
        )}
      </div>
      {payOnline && payOnline.savingPaise > 0 && (
        <p className="mt-2 text-sm font-medium">
          Save {formatRupees(payOnline.savingPaise)} when you pay online.
        </p>
      )}
    </section>
  );
}
