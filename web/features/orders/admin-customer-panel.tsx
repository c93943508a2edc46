import { type FormEvent, useState } from "react";
import { COD_REFUND_METHOD_LABELS } from "../../../common/cod.ts";
import { formatEstimate } from "../../../common/delivery-estimate.ts";
import { formatDate, formatDateTime, indianDate } from "../../../common/india-time.ts";
import { formatRupees, typedRupeesAsPaise } from "../../../common/money.ts";
import type { OrderStatus } from "../../../common/order-lifecycle.ts";
import { type AdminOrderDetail, PAYMENT_METHOD_LABELS } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { TaxDocumentLinks } from "../../components/tax-document-links.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { OrderAddress } from "./delivery-card.tsx";

/** The orders still on their way to the shopper, for whom the estimated delivery means something. */
const DELIVERY_AHEAD = new Set<OrderStatus>(["awaiting_payment", "placed", "confirmed", "packed"]);

/**
 * Who the order is for and how it is paid: the customer, the delivery address with a tap-to-call mobile, the
 * estimate or the parcel's tracking, the payment and any refund, the cash of a delivered COD order, and the
 * order's tax documents.
 */
export function AdminCustomerPanel({
  order,
  onCashRecorded,
}: {
  order: AdminOrderDetail;
  onCashRecorded: () => void;
}) {
  return (
    <section aria-labelledby="customer-heading" className={cardClass}>
      <h2 id="customer-heading" className="font-serif text-xl font-semibold">
        Customer and delivery
      </h2>
      <p className="mt-2 text-sm">{order.customerEmail ?? "Account deleted"}</p>
      <OrderAddress address={order.address} dial />
      {!order.trackingNumber && !order.deliveredAt && DELIVERY_AHEAD.has(order.status) && (
        <p className="mt-2 text-sm">Estimated delivery: {formatEstimate(order.estimate)}</p>
      )}
      <p className="mt-2 text-sm">
        {PAYMENT_METHOD_LABELS[order.paymentMethod]}
        {order.paidAt ? `, paid ${formatDateTime(order.paidAt)}` : order.cash ? "" : ", not paid"}
        {order.razorpayPaymentId && (
          <span className="block font-mono text-xs">{order.razorpayPaymentId}</span>
        )}
        {order.refundReference && (
          <span className="block">
            Refund: {order.refundMethod ? `${COD_REFUND_METHOD_LABELS[order.refundMethod]}, ` : ""}
            {order.refundReference}
          </span>
        )}
      </p>
      {order.paymentMethod === "cod" && order.deliveredAt && (
        <CashCollected order={order} onRecorded={onCashRecorded} />
      )}
      {order.trackingNumber && (
        <p className="mt-2 text-sm break-words">
          {order.courier}, tracking <span className="font-mono">{order.trackingNumber}</span>
          {order.trackingUrl && (
            <a href={order.trackingUrl} target="_blank" rel="noreferrer" className="ml-1 underline">
              Track parcel
            </a>
          )}
        </p>
      )}
      <TaxDocumentLinks base={`/api/admin/orders/${order.number}`} documents={order.documents} />
    </section>
  );
}

/**
 * A delivered cash-on-delivery order's cash: what was recorded, or a small form to record it by hand (the
 * courier's remittance report does the same in bulk on the Cash on delivery page).
 */
function CashCollected({ order, onRecorded }: { order: AdminOrderDetail; onRecorded: () => void }) {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (order.cash) {
    return (
      <p className="mt-2 rounded-md bg-emerald-50 p-2 text-sm text-emerald-900 dark:bg-emerald-900/30 dark:text-emerald-100">
        Cash collected: {formatRupees(order.cash.amountPaise)} on {formatDate(order.cash.collectedOn)}, ref{" "}
        <span className="font-mono break-all">{order.cash.reference}</span>
        {order.cash.source === "import" ? " (from a remittance report)" : ""}
      </p>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setSaving(true);
    setError(null);
    try {
      await api(`/admin/cod/orders/${order.number}/cash`, {
        method: "POST",
        body: {
          // "₹1,199" as typed: the rupee sign and spaces are not part of the amount.
          amountPaise: typedRupeesAsPaise(String(data.get("amount") ?? "").replace(/[₹\s]/g, "")),
          collectedOn: String(data.get("collectedOn") ?? ""),
          reference: String(data.get("reference") ?? ""),
        },
      });
      setOpen(false);
      onRecorded();
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      setError(caught.message);
    } finally {
      setSaving(false);
    }
  }
  return (
    <div className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
      <p>Cash to collect: {formatRupees(order.totalPaise)}</p>
      {!open ? (
        <Button variant="secondary" className="mt-2" onClick={() => setOpen(true)}>
          Record cash collected
        </Button>
      ) : (
        <form onSubmit={submit} aria-label="Record cash collected" className="mt-2 grid gap-2">
          <TextField
            label="Amount (₹)"
            name="amount"
            inputMode="decimal"
            defaultValue={(order.totalPaise / 100).toFixed(2)}
          />
          <TextField
            label="Collected on"
            name="collectedOn"
            type="date"
            defaultValue={indianDate(new Date())}
          />
          <TextField label="Reference" name="reference" maxLength={100} required />
          {error && (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <Button type="submit" disabled={saving}>
            Record
          </Button>
        </form>
      )}
    </div>
  );
}
