import { Link } from "react-router";
import type { WorkItem, WorkKey, WorkToDo } from "../../../common/analytics.ts";
import { formatRupees } from "../../../common/money.ts";

const count = new Intl.NumberFormat("en-IN");

type Entry = {
  title: string;
  to: string;
  none: string;
  note?: (item: WorkItem, overdueDays: number) => string;
};

/** What each count is called, where it is dealt with, and what an empty one says. */
const ENTRIES: Record<WorkKey, Entry> = {
  toConfirm: {
    title: "Orders to confirm",
    to: "/admin/cod-confirm",
    none: "No cash-on-delivery order waits for its shopper.",
  },
  toPack: { title: "To pack", to: "/admin/orders?status=confirmed", none: "Nothing to pack." },
  toBook: { title: "Packed, to book", to: "/admin/shipping", none: "Every packed order has a courier." },
  failedDeliveries: {
    title: "Failed deliveries",
    to: "/admin/shipping",
    none: "No failed delivery waits for an answer.",
  },
  comingBack: {
    title: "Parcels coming back",
    to: "/admin/orders?status=returned_to_origin",
    none: "No parcel on its way back.",
  },
  toReceive: {
    title: "Parcels to receive",
    to: "/admin/shipping",
    none: "No returned parcel waits to be received.",
  },
  cashExpected: {
    title: "Cash expected",
    to: "/admin/cod",
    none: "No cash due from couriers.",
    note: (item) => `${formatRupees(item.amountPaise ?? 0)} from couriers`,
  },
  cashOverdue: {
    title: "Cash overdue",
    to: "/admin/cod",
    none: "No cash overdue.",
    note: (item, days) => `${formatRupees(item.amountPaise ?? 0)}, delivered over ${days} days ago`,
  },
  questions: {
    title: "Questions",
    to: "/admin/questions?status=unanswered",
    none: "Every question answered.",
  },
  reviews: { title: "Reviews", to: "/admin/reviews", none: "No review to publish or hide." },
  messages: { title: "Messages", to: "/admin/messages", none: "No unread message." },
};

/** Kinds whose count is a warning when it is not zero: something has gone wrong or is late. */
const URGENT = new Set<WorkKey>(["failedDeliveries", "cashOverdue", "toReceive"]);

/**
 * The admin home's "Work to do": every kind of waiting work with its count and a link to the list where it is
 * done, the urgent ones marked when not zero. Nothing waiting still shows, quieter, so the owner sees it is
 * clear rather than wonder whether it is counted.
 */
export function WorkToDoList({ work }: { work: WorkToDo }) {
  const waiting = work.items.filter((item) => item.count > 0).length;
  return (
    <section aria-labelledby="work-heading">
      <h2 id="work-heading" className="font-serif text-xl font-semibold">
        Work to do
      </h2>
      <p className="mb-3 text-sm text-stone-600 dark:text-stone-400">
        {waiting === 0
          ? "Nothing waits: all caught up."
          : "Counted now; each opens the list where it is done."}
      </p>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">
        {work.items.map((item) => {
          const entry = ENTRIES[item.key];
          const urgent = URGENT.has(item.key) && item.count > 0;
          const text =
            item.count === 0 ? entry.none : (entry.note?.(item, work.codOverdueDays) ?? "Open the list");
          return (
            <li key={item.key}>
              <Link
                to={entry.to}
                data-work={item.key}
                className={`block h-full min-h-11 rounded-lg border bg-white p-3 hover:border-brand-600 dark:bg-stone-900 dark:hover:border-brand-100 ${
                  urgent ? "border-amber-500 dark:border-amber-400" : "border-stone-200 dark:border-stone-700"
                }`}
              >
                <span className="block text-sm font-medium text-stone-700 dark:text-stone-300">
                  {entry.title}
                </span>
                <span
                  className={`mt-1 block text-2xl font-semibold ${
                    item.count === 0 ? "text-stone-500 dark:text-stone-400" : ""
                  }`}
                >
                  {count.format(item.count)}
                  {urgent ? <span className="sr-only"> (needs attention)</span> : null}
                </span>
                <span className="mt-1 block text-xs text-stone-600 dark:text-stone-400">{text}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
