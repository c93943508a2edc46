import { formatDateTime, formatDayMonth } from "../../../common/india-time.ts";
import {
  ORDER_PROGRESS,
  type OrderActor,
  orderEventHeading,
  STATUS_LABELS,
} from "../../../common/order-lifecycle.ts";
import type { OrderEvent, OrderListItem } from "../../../common/orders.ts";

/** Whether each step of the usual way has been reached, with when. */
function reachedSteps(events: OrderEvent[]) {
  const reached = new Map<string, string>();
  for (const event of events) if (!reached.has(event.toStatus)) reached.set(event.toStatus, event.at);
  // An online order is "placed" the moment it is paid.
  const confirmed = reached.get("confirmed");
  if (!reached.has("placed") && confirmed) reached.set("placed", confirmed);
  return reached;
}

/** Down from the step above to this one's dot on a phone (gap-2 between steps); across from 640 px. */
const STACKED_CONNECTOR =
  "bottom-1/2 left-[11px] h-[calc(100%+0.5rem)] w-0.5 sm:top-2.5 sm:right-1/2 sm:bottom-auto sm:left-auto sm:h-0.5 sm:w-full";

/**
 * The order's way from placed to delivered as a compact line of steps. Orders that left that way
 * (cancelled, returned, refunded) show the steps they actually took instead.
 */
export function OrderProgress({ order }: { order: Pick<OrderListItem, "status" | "events"> }) {
  const reached = reachedSteps(order.events);
  const onHappyPath =
    (ORDER_PROGRESS as readonly string[]).includes(order.status) || order.status === "awaiting_payment";
  const steps = onHappyPath
    ? ORDER_PROGRESS.map((status) => ({ status, at: reached.get(status) ?? null }))
    : order.events
        .filter(
          (event, index, all) =>
            event.fromStatus !== event.toStatus &&
            all.findIndex((e) => e.toStatus === event.toStatus) === index,
        )
        .map((event) => ({ status: event.toStatus, at: event.at as string | null }));
  // Across a phone, five steps fit (about 65 px each); a returned or refunded order's eight do not, and their
  // labels ran into each other: there the steps go down the screen instead, across again from 640 px.
  const stacked = steps.length > 5;
  return (
    <ol
      aria-label="Order progress"
      className={`text-xs sm:grid sm:text-center sm:text-sm ${stacked ? "flex flex-col gap-2" : "grid text-center"}`}
      style={{ gridTemplateColumns: `repeat(${steps.length}, minmax(0, 1fr))` }}
    >
      {steps.map((step, index) => {
        const current = step.status === order.status;
        const done = step.at !== null;
        return (
          <li
            key={step.status}
            className={`relative flex items-center gap-1 px-0.5 sm:flex-col ${stacked ? "gap-x-2" : "flex-col"}`}
            aria-current={current ? "step" : undefined}
          >
            {index > 0 && (
              <span
                aria-hidden="true"
                className={`absolute ${stacked ? STACKED_CONNECTOR : "top-2.5 right-1/2 h-0.5 w-full"} ${done ? "bg-brand-600" : "bg-stone-300 dark:bg-stone-600"}`}
              />
            )}
            <span
              aria-hidden="true"
              className={`relative z-10 flex size-5 items-center justify-center rounded-full text-xs ${
                done
                  ? "bg-brand-600 text-white"
                  : "border-2 border-stone-300 bg-white dark:border-stone-600 dark:bg-stone-900"
              }`}
            >
              {done ? "✓" : ""}
            </span>
            <span className={current || done ? "font-medium" : "text-stone-500 dark:text-stone-400"}>
              {STATUS_LABELS[step.status]}
              <span className="sr-only">{done ? ", done" : ", not yet"}</span>
            </span>
            {step.at && (
              <time dateTime={step.at} className="text-stone-600 dark:text-stone-400">
                {formatDayMonth(step.at)}
              </time>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const ACTOR_LABELS: Record<OrderActor, string> = {
  customer: "by you",
  admin: "by our team",
  payment: "by the payment service",
  system: "automatically",
};

/** Every change to the order, oldest first, with its time and who made it. */
export function OrderTimeline<Event extends OrderEvent>({
  events,
  actorLabel = (event) => ACTOR_LABELS[event.actor],
}: {
  events: Event[];
  actorLabel?: (event: Event) => string;
}) {
  return (
    <ol className="space-y-3 border-l-2 border-stone-200 pl-4 dark:border-stone-700">
      {events.map((event) => (
        <li key={`${event.at}-${event.toStatus}-${event.note}`} className="relative">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full bg-brand-600 ring-4 ring-white dark:ring-stone-900"
          />
          <p className="font-medium">
            {orderEventHeading(event)}{" "}
            <span className="font-normal text-stone-600 dark:text-stone-400">{actorLabel(event)}</span>
          </p>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
          </p>
          {event.note && <p className="mt-0.5 text-sm">{event.note}</p>}
        </li>
      ))}
    </ol>
  );
}
