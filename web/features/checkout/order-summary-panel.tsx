import { formatEstimate } from "../../../common/delivery-estimate.ts";
import { formatRupees } from "../../../common/money.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Notice } from "../../components/notice.tsx";
import { OrderLines, OrderTotals } from "../orders/order-lines.tsx";
import { CartProblems } from "./cart-problems.tsx";
import type { Checkout, CheckoutData } from "./use-checkout.ts";

/** The lines, the totals, when it arrives, and the one button that places the order. */
export function OrderSummaryPanel({ summary, checkout }: { summary: CheckoutData; checkout: Checkout }) {
  const { guest } = summary;
  const { pricing, notServed, notServedMessage, hasAddress, blocked, method } = checkout;
  const payable = summary.payment.razorpay.enabled || summary.payment.cod.enabled;
  const choosePayment = hasAddress && !notServed && !blocked && payable && method === null;
  return (
    <aside aria-labelledby="summary-heading" className={`${cardClass} h-fit lg:sticky lg:top-4`}>
      <h2 id="summary-heading" className="font-serif text-xl font-semibold">
        Order summary
      </h2>
      <OrderLines
        lines={pricing.lines.map((line) => ({
          ...line,
          image: summary.images[line.itemId] ?? "",
          note:
            line.previousUnitPricePaise !== null
              ? `Price changed from ${formatRupees(line.previousUnitPricePaise)} since you added it`
              : null,
        }))}
      />
      <CartProblems pricing={pricing} />
      <OrderTotals
        subtotalPaise={pricing.subtotalPaise}
        discount={pricing.discount}
        prepaid={pricing.prepaid}
        shippingPaise={pricing.shippingPaise}
        totalPaise={pricing.totalPaise}
      />
      {pricing.freeShippingShortfallPaise > 0 && (
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Add {formatRupees(pricing.freeShippingShortfallPaise)} more for free shipping (free from{" "}
          {formatRupees(summary.freeShippingMinPaise)}{" "}
          {summary.freeShippingBasis === "before_discount" ? "before discount" : "after discount"}).
        </p>
      )}
      {/* No date is promised to a PIN code the shop does not deliver to. */}
      {!notServed && (
        <p className="mt-3 text-sm">
          <span className="font-medium">Estimated delivery:</span> {formatEstimate(summary.estimate)}
          <span className="block text-xs text-stone-600 dark:text-stone-400">
            We hand orders to the courier within 3-5 days.
          </span>
        </p>
      )}
      {checkout.error && (
        <Notice tone="error" className="mt-3">
          {checkout.error}
        </Notice>
      )}
      <Button
        type="button"
        onClick={checkout.placeOrder}
        disabled={!checkout.canPlace || checkout.placing}
        className="mt-4 w-full py-3 text-lg"
      >
        {checkout.placing
          ? "Placing your order…"
          : method === "razorpay"
            ? `Pay ${formatRupees(pricing.totalPaise)}`
            : `Place order · ${formatRupees(pricing.totalPaise)}`}
      </Button>
      {notServed && notServedMessage && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">
          {notServedMessage} Please {guest ? "enter" : "choose"} another address.
        </p>
      )}
      {choosePayment && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {summary.payment.razorpay.enabled
            ? "Choose how you would like to pay to continue."
            : "This order cannot be paid by cash on delivery (the reason is under Payment), and the shop takes no online payments at the moment."}
        </p>
      )}
      {!hasAddress && !blocked && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {guest
            ? "Enter your e-mail and delivery address to continue."
            : "Save a delivery address to continue."}
        </p>
      )}
    </aside>
  );
}
