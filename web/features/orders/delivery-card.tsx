import type { ReactNode } from "react";
import { formatEstimate } from "../../../common/delivery-estimate.ts";
import { formatMobile } from "../../../common/india.ts";
import { type OrderDetail, PAYMENT_METHOD_LABELS } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";

/** "Tambaram, Chengalpattu district, Tamil Nadu 600045": the district when it says more than the city. */
export function placeLine(address: OrderDetail["address"]): string {
  const district =
    address.district && address.district !== address.city ? `, ${address.district} district` : "";
  return `${address.city}${district}, ${address.state} ${address.pin}`;
}

/**
 * The address an order goes to. The mobile is a phone link where the reader calls the shopper (staff), plain
 * text where it is the shopper's own.
 */
export function OrderAddress({ address, dial = false }: { address: OrderDetail["address"]; dial?: boolean }) {
  return (
    <address className="mt-2 text-sm not-italic">
      <span className="font-medium">{address.name}</span>
      <br />
      {[address.line1, address.line2].filter(Boolean).join(", ")}
      <br />
      {placeLine(address)}
      <br />
      {dial ? (
        <a href={`tel:+91${address.phone}`} className="underline">
          {formatMobile(address.phone)}
        </a>
      ) : (
        `Mobile ${formatMobile(address.phone)}`
      )}
    </address>
  );
}

/** Where an order goes, how it is paid, and once shipped the courier's tracking link: for customers and guests alike. */
export function DeliveryCard({ order, children }: { order: OrderDetail; children?: ReactNode }) {
  return (
    <section aria-labelledby="delivery-heading" className={cardClass}>
      <h2 id="delivery-heading" className="font-serif text-xl font-semibold">
        Delivery
      </h2>
      <OrderAddress address={order.address} />
      {order.trackingNumber ? (
        <p className="mt-3 text-sm">
          Shipped with <span className="font-medium">{order.courier}</span>, tracking number{" "}
          <span className="font-mono font-medium">{order.trackingNumber}</span>
          {order.trackingUrl && (
            <>
              {" "}
              <a
                href={order.trackingUrl}
                target="_blank"
                rel="noreferrer"
                className="font-medium text-brand-700 underline dark:text-brand-100"
              >
                Track your parcel<span className="sr-only"> on the courier's website</span>
              </a>
            </>
          )}
        </p>
      ) : (
        !["cancelled", "refunded", "delivered", "returned", "return_requested"].includes(order.status) && (
          <p className="mt-3 text-sm">Estimated delivery: {formatEstimate(order.estimate)}</p>
        )
      )}
      <p className="mt-3 text-sm">
        Payment: {PAYMENT_METHOD_LABELS[order.paymentMethod]}
        {order.paidAt ? " (paid)" : ""}
      </p>
      {children}
    </section>
  );
}
