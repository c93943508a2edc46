import type { ReactNode } from "react";
import { formatDateTime } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import type { OrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Notice } from "../../components/notice.tsx";
import { OrderItemsCard } from "./order-lines.tsx";
import { OrderProgress, OrderTimeline } from "./order-progress.tsx";
import { StatusBadge } from "./status-badge.tsx";

/**
 * An order's page heading, for a customer and a guest alike: what just happened (`said`), the number, when
 * it was placed and its status, and while it waits for payment the way to pay (`payNote` says what more the
 * reader should know), then what went wrong (`error`).
 */
export function OrderHeading({
  order,
  said,
  payNote = "",
  onPay,
  paying,
  error,
}: {
  order: OrderDetail;
  said: ReactNode;
  payNote?: string;
  onPay: () => void;
  paying: boolean;
  error: string | null;
}) {
  return (
    <>
      {said && (
        <Notice tone="success" className="mt-3">
          {said}
        </Notice>
      )}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-3xl font-semibold">Order {order.number}</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Placed on <time dateTime={order.placedAt}>{formatDateTime(order.placedAt)}</time>
          </p>
        </div>
        <StatusBadge status={order.status} parcelBack={order.parcelBack} />
      </div>

      {order.status === "awaiting_payment" && (
        <div className="mt-4 rounded-md bg-amber-50 p-3 text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
          <p>
            This order is waiting for your payment of {formatRupees(order.totalPaise)}. Unpaid orders are
            cancelled after a while{payNote}.
          </p>
          {order.actions.pay && (
            <Button type="button" className="mt-2" onClick={onPay} disabled={paying}>
              Pay now
            </Button>
          )}
        </div>
      )}
      {error && (
        <Notice tone="error" className="mt-3">
          {error}
        </Notice>
      )}
    </>
  );
}

/**
 * An order's page below its heading, for a customer and a guest alike: its progress, its items and history,
 * and beside them `aside` (delivery, and what the reader may do next).
 */
export function OrderBody({ order, aside }: { order: OrderDetail; aside: ReactNode }) {
  return (
    <>
      <div className="mt-4">
        <OrderProgress order={order} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-6">
          <OrderItemsCard order={order} />
          <section aria-labelledby="history-heading" className={cardClass}>
            <h2 id="history-heading" className="mb-3 font-serif text-xl font-semibold">
              Order history
            </h2>
            <OrderTimeline events={order.events} />
          </section>
        </div>
        <div className="space-y-6">{aside}</div>
      </div>
    </>
  );
}
