import { Link } from "react-router";
import { AVAILABILITY_LABELS, type CartLine } from "../../../common/cart.ts";
import { formatRupees } from "../../../common/money.ts";
import { Thumbnail } from "../../components/card.tsx";
import { QuantityControl } from "./quantity-control.tsx";

export function CartLineItem({
  line,
  onQuantity,
  onRemove,
}: {
  line: CartLine;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}) {
  const unavailable = line.availability !== "available";
  return (
    <li
      className="flex gap-3 border-b border-stone-200 py-4 sm:gap-4 dark:border-stone-800"
      aria-label={line.name}
      data-testid="cart-line"
    >
      <Link to={line.href} className="shrink-0" tabIndex={-1} aria-hidden="true">
        {line.image ? (
          <Thumbnail
            src={line.image.small}
            className={`size-20 rounded-lg bg-stone-100 object-cover sm:size-24 dark:bg-stone-800 ${unavailable ? "opacity-50" : ""}`}
            size={96}
          />
        ) : (
          <span className="block size-20 rounded-lg bg-stone-200 sm:size-24 dark:bg-stone-800" />
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <Link to={line.href} className="font-medium hover:underline">
            {line.name}
          </Link>
          {line.kind === "combo" && (
            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
              Combo
            </span>
          )}
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {line.unitPricePaise === null ? "Price unavailable" : `${formatRupees(line.unitPricePaise)} each`}
          </p>
          {line.priceChanged && line.addedPricePaise !== null && (
            <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
              Price changed since you added it (was {formatRupees(line.addedPricePaise)})
            </p>
          )}
          {line.availability !== "available" && (
            <p className="text-sm font-semibold text-red-700 dark:text-red-400">
              {AVAILABILITY_LABELS[line.availability]}: not included in the total
            </p>
          )}
          <div className="mt-2">
            <QuantityControl name={line.name} quantity={line.quantity} onChange={onQuantity} />
          </div>
        </div>
        <div className="flex items-center justify-between gap-4 sm:flex-col sm:items-end">
          <p
            className={`font-semibold ${unavailable ? "text-stone-400 line-through dark:text-stone-500" : ""}`}
          >
            <span className="sr-only">Line total: </span>
            {formatRupees(line.lineTotalPaise)}
          </p>
          <button
            type="button"
            onClick={onRemove}
            className="min-h-11 rounded px-2 text-sm text-stone-600 underline hover:text-red-700 dark:text-stone-300 dark:hover:text-red-400"
            aria-label={`Remove ${line.name} from cart`}
          >
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}
