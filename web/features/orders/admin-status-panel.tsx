import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { COD_REFUND_METHOD_LABELS, COD_REFUND_METHODS, type CodRefundMethod } from "../../../common/cod.ts";
import { COURIERS, type Courier } from "../../../common/couriers.ts";
import { formatRupees } from "../../../common/money.ts";
import type { OrderStatus } from "../../../common/order-lifecycle.ts";
import type { AdminOrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, Input, Options, Select } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { api } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";
import { type OrderPanelDone, useAdminOrderChange } from "./admin-order-change.ts";

function actionLabel(to: OrderStatus, from: OrderStatus): string {
  if (to === "delivered" && from === "return_requested") return "Decline return";
  const labels: Partial<Record<OrderStatus, string>> = {
    confirmed: "Confirm order",
    packed: "Mark packed",
    delivered: "Mark delivered",
    return_requested: "Record return request",
    returned: "Mark returned (received back)",
    cancelled: "Cancel order",
  };
  return labels[to] ?? to;
}

/**
 * "Update status": the moves the order can make next, each with an optional note for the shopper's history;
 * shipping by hand (courier and tracking number in one step), a refund (through Razorpay, or recorded with
 * its reference), and cancelling after a confirmation.
 */
export function AdminStatusPanel({
  order,
  shippingByHand,
  shippingConnected,
  onDone,
}: {
  order: AdminOrderDetail;
  /** Whether the order may be shipped from here: not when the parcel was booked through the aggregator. */
  shippingByHand: boolean;
  shippingConnected: boolean;
  onDone: OrderPanelDone;
}) {
  const { busy, send } = useAdminOrderChange(order.number, onDone);
  const [note, setNote] = useState("");
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [shipping, setShipping] = useState(false);

  async function move(status: OrderStatus, extra: Record<string, unknown> = {}) {
    const body = { status, ...(note.trim() ? { note: note.trim() } : {}), ...extra };
    if (await send("status", "POST", body, "Order updated.")) setNote("");
    setConfirmCancel(false);
  }

  const plain = order.nextStatuses.filter((status) => !["shipped", "refunded", "cancelled"].includes(status));
  const canShip = order.nextStatuses.includes("shipped");
  const canRefund = order.nextStatuses.includes("refunded");
  const canCancel = order.nextStatuses.includes("cancelled");

  return (
    <section aria-labelledby="actions-heading" className={cardClass}>
      <h2 id="actions-heading" className="font-serif text-xl font-semibold">
        Update status
      </h2>
      {order.status === "placed" && order.paymentMethod === "cod" && (
        <p className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
          Not confirmed yet, so it cannot be packed or shipped: the shopper confirms it from their link, or
          call them and confirm it here or from{" "}
          <Link to="/admin/cod-confirm" className="underline">
            To confirm
          </Link>
          .
        </p>
      )}
      {order.nextStatuses.length === 0 ? (
        <p className="mt-2 text-sm">This order is closed; nothing more can change.</p>
      ) : (
        <>
          {/* The note goes into the order's history, which the shopper reads word for word: say so. */}
          <Field
            id="status-note"
            label="Note for the shopper's order history (optional)"
            hint="The shopper sees this note, word for word, on their order page."
            className="mt-3"
          >
            <Input value={note} onChange={(event) => setNote(event.target.value)} maxLength={500} />
          </Field>
          {plain.length > 0 && (
            <div className="mt-3 flex flex-wrap gap-2">
              {plain.map((status) => (
                <Button key={status} disabled={busy} onClick={() => move(status)}>
                  {actionLabel(status, order.status)}
                </Button>
              ))}
            </div>
          )}
          {canShip && shippingByHand && (
            <Button disabled={busy} className="mt-4 mr-2 w-full sm:w-auto" onClick={() => setShipping(true)}>
              {shippingConnected ? "Mark shipped by hand" : "Ship"}
            </Button>
          )}
          {canRefund && (
            <RefundForm order={order} busy={busy} onRefund={(extra) => move("refunded", extra)} />
          )}
          {canCancel && (
            <Button variant="danger" disabled={busy} className="mt-4" onClick={() => setConfirmCancel(true)}>
              Cancel order
            </Button>
          )}
        </>
      )}

      <ShipDialog
        open={shipping}
        number={order.number}
        note={note}
        onClose={() => setShipping(false)}
        onShipped={() => {
          setShipping(false);
          setNote("");
          onDone({ kind: "ok", text: "Order shipped; the customer is e-mailed the tracking link." });
        }}
      />
      <Dialog
        open={confirmCancel}
        title={`Cancel order ${order.number}?`}
        onClose={() => setConfirmCancel(false)}
      >
        <p className="text-sm">
          The stock goes back on the shelf and the customer is e-mailed.
          {order.paidAt ? " The order was paid: refund it afterwards." : ""}
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirmCancel(false)}>
            Keep order
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => move("cancelled")}>
            Cancel order
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

/**
 * A refund: through Razorpay for an order paid online (nothing to type), otherwise recorded with how and
 * with which reference the money went back.
 */
function RefundForm({
  order,
  busy,
  onRefund,
}: {
  order: AdminOrderDetail;
  busy: boolean;
  onRefund: (extra: Record<string, unknown>) => void;
}) {
  const [refundReference, setRefundReference] = useState("");
  const [refundMethod, setRefundMethod] = useState<CodRefundMethod | "">("");
  const refundsOnline = order.paymentMethod === "razorpay" && order.razorpayPaymentId !== null;
  const cod = order.paymentMethod === "cod";
  return (
    <div className="mt-4 space-y-2">
      {refundsOnline ? (
        <p className="text-sm">
          {formatRupees(order.totalPaise)} goes back to the customer's original payment method through
          Razorpay.
        </p>
      ) : (
        <div>
          {cod && (
            <Field label="Paid back by" className="mb-2">
              <Select
                value={refundMethod}
                onChange={(event) => setRefundMethod(event.target.value as CodRefundMethod | "")}
              >
                <option value="">Choose…</option>
                <Options values={COD_REFUND_METHODS} labels={COD_REFUND_METHOD_LABELS} />
              </Select>
            </Field>
          )}
          <Field
            label={cod ? "Reference (UPI, bank, receipt or credit note)" : "UPI or bank transfer reference"}
          >
            <Input value={refundReference} onChange={(event) => setRefundReference(event.target.value)} />
          </Field>
        </div>
      )}
      <Button
        disabled={busy || (!refundsOnline && !refundReference.trim()) || (cod && !refundMethod)}
        onClick={() =>
          onRefund(
            refundsOnline
              ? {}
              : { refundReference: refundReference.trim(), ...(cod && refundMethod ? { refundMethod } : {}) },
          )
        }
      >
        {refundsOnline ? `Refund ${formatRupees(order.totalPaise)} via Razorpay` : "Mark refunded"}
      </Button>
    </div>
  );
}

/**
 * Shipping in one step: the courier from the list and its tracking number go with the status change in one
 * request (POST /admin/orders/:number/ship), so an order is never shipped without them.
 */
function CourierField({ courier, setCourier }: { courier: Courier; setCourier: (courier: Courier) => void }) {
  return (
    <Field label="Courier">
      <Select required value={courier} onChange={(event) => setCourier(event.target.value as Courier)}>
        <Options values={COURIERS} />
      </Select>
    </Field>
  );
}

function ShipDialog({
  open,
  number,
  note,
  onClose,
  onShipped,
}: {
  open: boolean;
  number: string;
  note: string;
  onClose: () => void;
  onShipped: () => void;
}) {
  const [courier, setCourier] = useState<Courier>("Delhivery");
  const [tracking, setTracking] = useState("");
  const [url, setUrl] = useState("");
  const { busy, error, run } = useRequest();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await api(`/admin/orders/${number}/ship`, {
        method: "POST",
        body: {
          courier,
          trackingNumber: tracking.trim(),
          ...(courier === "Other" && url.trim() ? { trackingUrl: url.trim() } : {}),
          ...(note.trim() ? { note: note.trim() } : {}),
        },
      });
      setTracking("");
      setUrl("");
      onShipped();
    });
  }

  return (
    <Dialog open={open} title={`Ship order ${number}`} onClose={onClose}>
      <form onSubmit={submit} className="space-y-3" aria-label="Ship the order">
        <CourierField courier={courier} setCourier={setCourier} />
        <Field label="Tracking number" hint="4-40 letters, digits or hyphens, as on the waybill.">
          <Input
            required
            pattern="[A-Za-z0-9\-]{4,40}"
            title="4-40 letters, digits or hyphens"
            autoComplete="off"
            autoCapitalize="characters"
            value={tracking}
            onChange={(event) => setTracking(event.target.value)}
          />
        </Field>
        {courier === "Other" && (
          <Field label="Tracking page (optional)">
            <Input
              type="url"
              pattern="https://.*"
              placeholder="https://"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
          </Field>
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={onClose}>
            Not now
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Shipping…" : "Ship order"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
