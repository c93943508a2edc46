import { type OrderStatus, orderStatusLabel } from "../../../common/order-lifecycle.ts";

const TONES: Record<OrderStatus, string> = {
  awaiting_payment: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  placed: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  confirmed: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  packed: "bg-indigo-100 text-indigo-900 dark:bg-indigo-900/40 dark:text-indigo-100",
  shipped: "bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-100",
  delivered: "bg-brand-100 text-brand-800 dark:bg-brand-900/60 dark:text-brand-100",
  cancelled: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  return_requested: "bg-orange-100 text-orange-900 dark:bg-orange-900/40 dark:text-orange-100",
  returned: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  returned_to_origin: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100",
  refunded: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

/** `parcelBack`: a parcel coming back to the shop has arrived ("Returned to us" rather than "Coming back to us"). */
export function StatusBadge({ status, parcelBack = false }: { status: OrderStatus; parcelBack?: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-sm font-medium whitespace-nowrap ${TONES[status]}`}
    >
      {orderStatusLabel(status, parcelBack)}
    </span>
  );
}
