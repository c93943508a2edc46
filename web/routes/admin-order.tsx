import { type FormEvent, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { COD_REFUND_METHOD_LABELS, COD_REFUND_METHODS, type CodRefundMethod } from "../../common/cod.ts";
import { COURIERS, type Courier } from "../../common/couriers.ts";
import { formatEstimate } from "../../common/delivery-estimate.ts";
import { formatMobile } from "../../common/india.ts";
import { formatDate, formatDateTime, indianDate } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import { type AdminOrderDetail, PAYMENT_METHOD_LABELS } from "../../common/orders.ts";
import type { OrderRtoView } from "../../common/rto.ts";
import { invoiceDue, type SellerInvoiceStatus } from "../../common/schemas/missed-invoices.ts";
import { orderEditable } from "../../common/schemas/order-edit.ts";
import type { ShipmentView } from "../../common/shipping.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Dialog } from "../components/dialog.tsx";
import { Field, Input, Select, TextField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { ResultMessage, type ResultMessageState } from "../components/result-message.tsx";
import { RouteError } from "../components/route-error.tsx";
import { TaxDocumentLinks } from "../components/tax-document-links.tsx";
import { RtoPanel } from "../features/cod/rto-panel.tsx";
import { placeLine } from "../features/orders/delivery-card.tsx";
import { OrderInvoiceNotice } from "../features/orders/missed-invoices.tsx";
import { OrderEditPanel } from "../features/orders/order-edit.tsx";
import { OrderItemsCard } from "../features/orders/order-lines.tsx";
import { OrderTimeline } from "../features/orders/order-progress.tsx";
import { StatusBadge } from "../features/orders/status-badge.tsx";
import { AdminShipmentPanel } from "../features/shipping/admin-shipment-panel.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";
import { useRequest } from "../lib/use-request.ts";

/** The orders still on their way to the shopper, for whom the estimated delivery means something. */
const DELIVERY_AHEAD = new Set<OrderStatus>(["awaiting_payment", "placed", "confirmed", "packed"]);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdminUser(request);
  const number = encodeURIComponent(params.number ?? "");
  const [detail, shipping, parcel, seller, returned] = await Promise.all([
    api<{ order: AdminOrderDetail }>(`/admin/orders/${number}`),
    api<{ connected: boolean }>("/admin/shipping"),
    api<{ shipment: ShipmentView | null }>(`/admin/shipping/orders/${number}`),
    api<SellerInvoiceStatus>("/admin/missed-invoices/seller"),
    api<{ rto: OrderRtoView | null; chargesPaise: number | null }>(`/admin/rto/orders/${number}`),
  ]);
  return {
    ...detail,
    shippingConnected: shipping.connected,
    shipment: parcel.shipment,
    seller,
    returned,
    isOwner: admin.role === "owner",
  };
}

export const ErrorBoundary = RouteError;

const ACTOR_LABELS = {
  customer: "by the customer",
  admin: "by staff",
  payment: "by Razorpay",
  system: "automatically",
};

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

export function Component() {
  const { order, shippingConnected, shipment, seller, isOwner, returned } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [note, setNote] = useState("");
  const [refundReference, setRefundReference] = useState("");
  const [refundMethod, setRefundMethod] = useState<CodRefundMethod | "">("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [shipping, setShipping] = useState(false);

  async function send(path: string, method: "POST" | "PUT", body: Record<string, unknown>, done: string) {
    setBusy(true);
    setMessage(null);
    try {
      await api(`/admin/orders/${order.number}/${path}`, { method, body });
      setNote("");
      setMessage({ kind: "ok", text: done });
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." });
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  }

  const move = (status: OrderStatus, extra: Record<string, unknown> = {}) =>
    send(
      "status",
      "POST",
      { status, ...(note.trim() ? { note: note.trim() } : {}), ...extra },
      "Order updated.",
    );

  const plain = order.nextStatuses.filter((status) => !["shipped", "refunded", "cancelled"].includes(status));
  const canShip = order.nextStatuses.includes("shipped");
  const canRefund = order.nextStatuses.includes("refunded");
  const canCancel = order.nextStatuses.includes("cancelled");
  const refundsOnline = order.paymentMethod === "razorpay" && order.razorpayPaymentId !== null;

  return (
    <div>
      <p className="text-sm">
        <Link to="/admin/orders" className="underline">
          ← All orders
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-3xl font-semibold">Order {order.number}</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Placed {formatDateTime(order.placedAt)}
          </p>
        </div>
        <StatusBadge status={order.status} parcelBack={order.parcelBack} />
      </div>
      <ResultMessage message={message} />
      {!order.documents.invoice && (!seller.canIssue || invoiceDue(order.status)) && (
        <OrderInvoiceNotice
          number={order.number}
          seller={seller}
          isOwner={isOwner}
          onDone={(result) => {
            setMessage(result);
            revalidator.revalidate();
          }}
        />
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_24rem]">
        <div className="space-y-6">
          <OrderItemsCard order={order} />
          <section aria-labelledby="history-heading" className={cardClass}>
            <h2 id="history-heading" className="mb-3 font-serif text-xl font-semibold">
              History
            </h2>
            <OrderTimeline
              events={order.events}
              actorLabel={(event) =>
                event.actor === "admin" && event.actorEmail
                  ? `by ${event.actorEmail}`
                  : ACTOR_LABELS[event.actor]
              }
            />
          </section>
        </div>

        {/* On a phone, what staff act on comes before the items. */}
        <div className="order-first space-y-6 lg:order-none">
          <section aria-labelledby="customer-heading" className={cardClass}>
            <h2 id="customer-heading" className="font-serif text-xl font-semibold">
              Customer and delivery
            </h2>
            <p className="mt-2 text-sm">{order.customerEmail ?? "Account deleted"}</p>
            <address className="mt-2 text-sm not-italic">
              <span className="font-medium">{order.address.name}</span>
              <br />
              {[order.address.line1, order.address.line2].filter(Boolean).join(", ")}
              <br />
              {placeLine(order.address)}
              <br />
              <a href={`tel:+91${order.address.phone}`} className="underline">
                {formatMobile(order.address.phone)}
              </a>
            </address>
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
              <CashCollected order={order} onRecorded={() => revalidator.revalidate()} />
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

          <AdminShipmentPanel
            number={order.number}
            status={order.status}
            connected={shippingConnected}
            shipment={shipment}
            onChanged={(text) => {
              setMessage({ kind: "ok", text });
              revalidator.revalidate();
            }}
          />

          {orderEditable(order.status) && !shipment && (
            <OrderEditPanel
              order={order}
              onDone={(result) => {
                setMessage(result);
                revalidator.revalidate();
              }}
            />
          )}

          <RtoPanel
            number={order.number}
            status={order.status}
            rto={returned.rto}
            chargesPaise={returned.chargesPaise}
            receivedElsewhere={shipment?.status === "rto_delivered" && !shipment.receivedBack}
            onChanged={(text) => {
              setMessage({ kind: "ok", text });
              revalidator.revalidate();
            }}
          />

          <section aria-labelledby="actions-heading" className={cardClass}>
            <h2 id="actions-heading" className="font-serif text-xl font-semibold">
              Update status
            </h2>
            {order.status === "placed" && order.paymentMethod === "cod" && (
              <p className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
                Not confirmed yet, so it cannot be packed or shipped: the shopper confirms it from their link,
                or call them and confirm it here or from{" "}
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
                {canShip && !shipment && (
                  <Button
                    disabled={busy}
                    className="mt-4 mr-2 w-full sm:w-auto"
                    onClick={() => setShipping(true)}
                  >
                    {shippingConnected ? "Mark shipped by hand" : "Ship"}
                  </Button>
                )}
                {canRefund && (
                  <div className="mt-4 space-y-2">
                    {refundsOnline ? (
                      <p className="text-sm">
                        {formatRupees(order.totalPaise)} goes back to the customer's original payment method
                        through Razorpay.
                      </p>
                    ) : (
                      <div>
                        {order.paymentMethod === "cod" && (
                          <Field label="Paid back by" className="mb-2">
                            <Select
                              value={refundMethod}
                              onChange={(event) =>
                                setRefundMethod(event.target.value as CodRefundMethod | "")
                              }
                            >
                              <option value="">Choose…</option>
                              {COD_REFUND_METHODS.map((method) => (
                                <option key={method} value={method}>
                                  {COD_REFUND_METHOD_LABELS[method]}
                                </option>
                              ))}
                            </Select>
                          </Field>
                        )}
                        <Field
                          label={
                            order.paymentMethod === "cod"
                              ? "Reference (UPI, bank, receipt or credit note)"
                              : "UPI or bank transfer reference"
                          }
                        >
                          <Input
                            value={refundReference}
                            onChange={(event) => setRefundReference(event.target.value)}
                          />
                        </Field>
                      </div>
                    )}
                    <Button
                      disabled={
                        busy ||
                        (!refundsOnline && !refundReference.trim()) ||
                        (order.paymentMethod === "cod" && !refundMethod)
                      }
                      onClick={() =>
                        move(
                          "refunded",
                          refundsOnline
                            ? {}
                            : {
                                refundReference: refundReference.trim(),
                                ...(order.paymentMethod === "cod" && refundMethod ? { refundMethod } : {}),
                              },
                        )
                      }
                    >
                      {refundsOnline
                        ? `Refund ${formatRupees(order.totalPaise)} via Razorpay`
                        : "Mark refunded"}
                    </Button>
                  </div>
                )}
                {canCancel && (
                  <Button
                    variant="danger"
                    disabled={busy}
                    className="mt-4"
                    onClick={() => setConfirmCancel(true)}
                  >
                    Cancel order
                  </Button>
                )}
              </>
            )}
          </section>

          {/* A parcel booked through the aggregator keeps its courier and AWB from the booking. */}
          {(order.status === "shipped" || order.status === "delivered") && !shipment && (
            <section aria-labelledby="tracking-heading" className={cardClass}>
              <h2 id="tracking-heading" className="font-serif text-xl font-semibold">
                Correct courier details
              </h2>
              {/* Keyed by what is saved: the fields start from the order as it is now, also right after
                  it was shipped or delivered on this page (they used to stay empty until a reload). */}
              <CourierDetailsForm
                key={`${order.courier ?? ""}|${order.trackingNumber ?? ""}`}
                order={order}
                busy={busy}
                onSave={(details) => send("tracking", "PUT", details, "Courier details saved.")}
              />
            </section>
          )}
        </div>
      </div>

      <ShipDialog
        open={shipping}
        number={order.number}
        note={note}
        onClose={() => setShipping(false)}
        onShipped={() => {
          setShipping(false);
          setNote("");
          setMessage({ kind: "ok", text: "Order shipped; the customer is e-mailed the tracking link." });
          revalidator.revalidate();
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
    </div>
  );
}

function CourierDetailsForm({
  order,
  busy,
  onSave,
}: {
  order: Pick<AdminOrderDetail, "courier" | "trackingNumber">;
  busy: boolean;
  onSave: (details: { courier: string; trackingNumber: string }) => void;
}) {
  const [courier, setCourier] = useState(order.courier ?? "");
  const [tracking, setTracking] = useState(order.trackingNumber ?? "");
  return (
    <form
      className="mt-2 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSave({ courier: courier.trim(), trackingNumber: tracking.trim() });
      }}
    >
      <Field label="Courier">
        <Input
          list="couriers"
          required
          value={courier}
          onChange={(event) => setCourier(event.target.value)}
        />
      </Field>
      <datalist id="couriers">
        {COURIERS.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Field label="Tracking number">
        <Input required value={tracking} onChange={(event) => setTracking(event.target.value)} />
      </Field>
      <Button type="submit" variant="secondary" disabled={busy}>
        Save courier details
      </Button>
    </form>
  );
}

/**
 * Shipping in one step: the courier from the list and its tracking number go with the status change in one
 * request (POST /admin/orders/:number/ship), so an order is never shipped without them.
 */
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
        <Field label="Courier">
          <Select required value={courier} onChange={(event) => setCourier(event.target.value as Courier)}>
            {COURIERS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
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

export const handle: RouteHandle = { meta: privatePage("Admin: order") };

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
    const amountPaise = Math.round(Number(String(data.get("amount") ?? "").replace(/[₹,\s]/g, "")) * 100);
    setSaving(true);
    setError(null);
    try {
      await api(`/admin/cod/orders/${order.number}/cash`, {
        method: "POST",
        body: {
          amountPaise,
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
