import { formatRupees } from "../../../common/money.ts";
import { PREPAID_LINE_LABEL, type PrepaidSaving } from "../../../common/prepaid-incentive.ts";
import { cardClass, Thumbnail } from "../../components/card.tsx";

export type DisplayLine = {
  itemId: string;
  name: string;
  image: string;
  quantity: number;
  unitPricePaise: number;
  lineTotalPaise: number;
  note?: string | null;
};

/** Items with their thumbnails, quantities and amounts. */
export function OrderLines({ lines }: { lines: DisplayLine[] }) {
  return (
    <ul className="divide-y divide-stone-200 dark:divide-stone-700">
      {lines.map((line) => (
        <li key={line.itemId} className="flex gap-3 py-3">
          <Thumbnail
            src={line.image}
            className="size-16 shrink-0 rounded-md bg-stone-100 object-cover dark:bg-stone-800"
            size={64}
          />
          <div className="min-w-0 flex-1">
            <p className="font-medium">{line.name}</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {line.quantity} × {formatRupees(line.unitPricePaise)}
            </p>
            {line.note && <p className="text-sm text-amber-800 dark:text-amber-300">{line.note}</p>}
          </div>
          <p className="font-medium whitespace-nowrap">{formatRupees(line.lineTotalPaise)}</p>
        </li>
      ))}
    </ul>
  );
}

/** Subtotal, discount, shipping and total; every figure comes from the server. */
export function OrderTotals({
  subtotalPaise,
  discount,
  prepaid,
  shippingPaise,
  totalPaise,
}: {
  subtotalPaise: number;
  discount: { code: string; amountPaise: number } | null;
  /** The owner's reward for paying online, when the order is (or would be) paid so. */
  prepaid: PrepaidSaving | null;
  shippingPaise: number;
  totalPaise: number;
}) {
  return (
    <>
      <dl className="space-y-1.5 text-sm">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd>{formatRupees(subtotalPaise)}</dd>
        </div>
        {discount && (
          <div className="flex justify-between text-brand-700 dark:text-brand-100">
            <dt>Discount ({discount.code})</dt>
            <dd>−{formatRupees(discount.amountPaise)}</dd>
          </div>
        )}
        {prepaid?.kind === "discount" && (
          <div className="flex justify-between text-brand-700 dark:text-brand-100">
            <dt>{PREPAID_LINE_LABEL}</dt>
            <dd>−{formatRupees(prepaid.amountPaise)}</dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt>Shipping</dt>
          {prepaid?.kind === "free_shipping" ? (
            <dd className="text-brand-700 dark:text-brand-100">
              <s className="mr-1 text-stone-500 dark:text-stone-400">{formatRupees(prepaid.amountPaise)}</s>
              Free for paying online
            </dd>
          ) : (
            <dd>{shippingPaise === 0 ? "Free" : formatRupees(shippingPaise)}</dd>
          )}
        </div>
        <div className="flex justify-between border-t border-stone-200 pt-2 text-base font-semibold dark:border-stone-700">
          <dt>Total</dt>
          <dd>{formatRupees(totalPaise)}</dd>
        </div>
      </dl>
      {/* Outside the list: a <dl> may hold only groups of <dt> and <dd>. */}
      <p className="mt-1.5 text-xs text-stone-600 dark:text-stone-400">All prices include GST.</p>
    </>
  );
}

type OrderAmounts = Parameters<typeof OrderTotals>[0];

/** A placed order's items and totals as a card: the customer's and the staff's order pages show the same. */
export function OrderItemsCard({ order }: { order: OrderAmounts & { lines: DisplayLine[] } }) {
  return (
    <section aria-labelledby="items-heading" className={cardClass}>
      <h2 id="items-heading" className="font-serif text-xl font-semibold">
        Items
      </h2>
      <OrderLines lines={order.lines} />
      <OrderTotals
        subtotalPaise={order.subtotalPaise}
        discount={order.discount}
        prepaid={order.prepaid}
        shippingPaise={order.shippingPaise}
        totalPaise={order.totalPaise}
      />
    </section>
  );
}
