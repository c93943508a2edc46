import type { ReactNode } from "react";
import type { OrderDetail } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";
import { OrderItemsCard } from "./order-lines.tsx";
import { OrderProgress, OrderTimeline } from "./order-progress.tsx";

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
