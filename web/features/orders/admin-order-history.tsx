import type { AdminOrderDetail } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";
import { OrderTimeline } from "./order-progress.tsx";

const ACTOR_LABELS = {
  customer: "by the customer",
  admin: "by staff",
  payment: "by Razorpay",
  system: "automatically",
};

/** The order's history as staff read it: who made each change, by e-mail where it was one of them. */
export function AdminOrderHistory({ events }: { events: AdminOrderDetail["events"] }) {
  return (
    <section aria-labelledby="history-heading" className={cardClass}>
      <h2 id="history-heading" className="mb-3 font-serif text-xl font-semibold">
        History
      </h2>
      <OrderTimeline
        events={events}
        actorLabel={(event) =>
          event.actor === "admin" && event.actorEmail ? `by ${event.actorEmail}` : ACTOR_LABELS[event.actor]
        }
      />
    </section>
  );
}
