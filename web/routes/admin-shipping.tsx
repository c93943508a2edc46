import { useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { formatDateTime } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import { STATUS_LABELS } from "../../common/order-lifecycle.ts";
import { type DeliveryRequest, SHIPMENT_STATUS_LABELS, type ShipmentStatus } from "../../common/shipping.ts";
import { WEIGHTS_PAGE, type WeightsSummary } from "../../common/weights.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Notice } from "../components/notice.tsx";
import { ResultMessage, type ResultMessageState } from "../components/result-message.tsx";
import { RouteError } from "../components/route-error.tsx";
import { DeliveryRequestNote } from "../features/shipping/delivery-request-note.tsx";
import { StaffNdrChoice } from "../features/shipping/reattempt-day.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

type ReadyOrder = {
  number: string;
  status: OrderStatus;
  name: string;
  city: string;
  pin: string;
  totalPaise: number;
  paymentMethod: "cod" | "razorpay";
  placedAt: string;
};
type WaitingParcel = {
  number: string;
  name: string;
  city: string;
  pin: string;
  phone: string;
  status: ShipmentStatus;
  courier: string | null;
  awb: string | null;
  ndrState: string | null;
  ndrReason: string | null;
  ndrNote: string | null;
  request: DeliveryRequest | null;
  lastScanAt: string | null;
};
type BulkResult = {
  number: string;
  ok: boolean;
  awb?: string | null;
  courier?: string | null;
  error?: string;
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  const shipping = await api<{ connected: boolean; service: string | null; weights: WeightsSummary }>(
    "/admin/shipping",
  );
  if (!shipping.connected) return { ...shipping, ready: [] as ReadyOrder[], waiting: [] as WaitingParcel[] };
  const [ready, waiting] = await Promise.all([
    api<{ orders: ReadyOrder[] }>("/admin/shipping/ready"),
    api<{ parcels: WaitingParcel[] }>("/admin/shipping/undelivered"),
  ]);
  return { ...shipping, ready: ready.orders, waiting: waiting.parcels };
}

export const ErrorBoundary = RouteError;

const errorText = (caught: unknown) => (isApiError(caught) ? caught.message : "Something went wrong.");
const checkClass = "size-5 shrink-0 accent-brand-700";

/** The shipping desk: book the orders that are ready (together, labels in one PDF) and settle failed deliveries. */
export function Component() {
  const { connected, service, weights, ready, waiting } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<BulkResult[] | null>(null);
  const [message, setMessage] = useState<ResultMessageState | null>(null);

  if (!connected) {
    return (
      <div>
        <h1 className="font-serif text-3xl font-semibold">Shipping</h1>
        <p className="mt-4 max-w-prose text-sm">
          No courier aggregator is connected, so orders are shipped by hand: book the courier on its site and
          use "Ship" on the order. To book from here, connect a Shiprocket API user (README, "Shipping with
          Shiprocket").
        </p>
      </div>
    );
  }

  const toggle = (number: string) =>
    setSelected((current) =>
      current.includes(number) ? current.filter((entry) => entry !== number) : [...current, number],
    );

  async function bookSelected(rule: "cheapest" | "fastest") {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api<{ results: BulkResult[] }>("/admin/shipping/bulk", {
        method: "POST",
        body: { numbers: selected, rule },
      });
      setResults(answer.results);
      setSelected([]);
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: errorText(caught) });
    } finally {
      setBusy(false);
    }
  }

  async function act(number: string, path: string, body: Record<string, unknown>, done: string) {
    setBusy(true);
    setMessage(null);
    try {
      await api(`/admin/shipping/orders/${number}/${path}`, { method: "POST", body });
      setMessage({ kind: "ok", text: `${number}: ${done}` });
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: `${number}: ${errorText(caught)}` });
    } finally {
      setBusy(false);
    }
  }

  const booked = results?.filter((result) => result.ok) ?? [];
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Shipping</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Couriers booked through {service}.</p>
      <ParcelWeights weights={weights} />
      <ResultMessage message={message} />

      {results && (
        <section aria-labelledby="booked-heading" className={`${cardClass} mt-4`}>
          <h2 id="booked-heading" className="font-serif text-xl font-semibold">
            Booked just now
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {results.map((result) => (
              <li key={result.number} className="break-words">
                <span className="font-medium">{result.number}</span>:{" "}
                {result.ok ? (
                  <>
                    {result.courier}, AWB <span className="font-mono">{result.awb}</span>
                  </>
                ) : (
                  <span className="text-red-800 dark:text-red-300">{result.error}</span>
                )}
              </li>
            ))}
          </ul>
          {booked.length > 0 && (
            <a
              href={`/api/admin/shipping/labels.pdf?orders=${booked.map((result) => result.number).join(",")}`}
              target="_blank"
              rel="noreferrer"
              className={`${buttonClass()} mt-3`}
            >
              Print {booked.length} {booked.length === 1 ? "label" : "labels"}
            </a>
          )}
        </section>
      )}

      <section aria-labelledby="ready-heading" className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="ready-heading" className="font-serif text-2xl font-semibold">
            Ready to book
          </h2>
          {ready.length > 0 && (
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className={checkClass}
                checked={selected.length === ready.length}
                onChange={() =>
                  setSelected(selected.length === ready.length ? [] : ready.map((order) => order.number))
                }
              />
              Select all
            </label>
          )}
        </div>
        {ready.length === 0 ? (
          <p className="mt-2 text-sm">No confirmed or packed order is waiting for a courier.</p>
        ) : (
          <>
            <ul aria-label="Orders ready to book" className="mt-3 grid gap-3 lg:grid-cols-2">
              {ready.map((order) => (
                <li key={order.number} className={`${cardClass} flex items-start gap-3 text-sm`}>
                  <input
                    id={`pick-${order.number}`}
                    type="checkbox"
                    className={`${checkClass} mt-0.5`}
                    checked={selected.includes(order.number)}
                    onChange={() => toggle(order.number)}
                  />
                  <div className="min-w-0 flex-1">
                    <label htmlFor={`pick-${order.number}`} className="font-medium">
                      {order.number}
                    </label>{" "}
                    <Link
                      to={`/admin/orders/${order.number}`}
                      className="text-brand-700 underline dark:text-brand-100"
                    >
                      open
                    </Link>
                    <p className="break-words">
                      {order.name} · {order.city} {order.pin}
                    </p>
                    <p className="text-stone-600 dark:text-stone-400">
                      {STATUS_LABELS[order.status]} · {formatRupees(order.totalPaise)}{" "}
                      {order.paymentMethod === "cod" ? "COD" : "prepaid"} · {formatDateTime(order.placedAt)}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            <div className="sticky bottom-0 mt-3 flex flex-wrap items-center gap-2 border-t border-stone-200 bg-stone-50/95 py-3 dark:border-stone-700 dark:bg-stone-950/95">
              <span className="text-sm" aria-live="polite">
                {selected.length} selected
              </span>
              <Button
                type="button"
                disabled={busy || selected.length === 0}
                onClick={() => bookSelected("cheapest")}
              >
                {busy ? "Booking…" : "Book cheapest"}
              </Button>
              <Button
                type="button"
                disabled={busy || selected.length === 0}
                variant="secondary"
                onClick={() => bookSelected("fastest")}
              >
                Book fastest
              </Button>
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="waiting-heading" className="mt-8">
        <h2 id="waiting-heading" className="font-serif text-2xl font-semibold">
          Not delivered and coming back
        </h2>
        {waiting.length === 0 ? (
          <p className="mt-2 text-sm">Every parcel is on its way or delivered.</p>
        ) : (
          <ul aria-label="Parcels needing a decision" className="mt-3 grid gap-3 lg:grid-cols-2">
            {waiting.map((parcel) => (
              <WaitingCard
                key={parcel.number}
                parcel={parcel}
                service={service ?? "the aggregator"}
                busy={busy}
                act={act}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The parcel's order, status, shopper, place, courier and AWB. */
function WaitingParcelHeading({ parcel }: { parcel: WaitingParcel }) {
  return (
    <>
      <p className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to={`/admin/orders/${parcel.number}`}
          className="font-medium text-brand-700 underline dark:text-brand-100"
        >
          {parcel.number}
        </Link>
        <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
          {SHIPMENT_STATUS_LABELS[parcel.status]}
        </span>
      </p>
      <p className="mt-1 break-words">
        {parcel.name} · {parcel.city} {parcel.pin} · {parcel.courier}{" "}
        <span className="font-mono break-all">{parcel.awb}</span>
      </p>
    </>
  );
}

function WaitingCard({
  parcel,
  service,
  busy,
  act,
}: {
  parcel: WaitingParcel;
  service: string;
  busy: boolean;
  act: (number: string, path: string, body: Record<string, unknown>, done: string) => void;
}) {
  const decidable =
    parcel.status === "undelivered" &&
    (parcel.ndrState === "open" || parcel.ndrState === "reattempt_requested");
  return (
    <li className={`${cardClass} text-sm`}>
      <WaitingParcelHeading parcel={parcel} />
      {parcel.ndrReason && <p className="mt-1">Courier: {parcel.ndrReason}</p>}
      {/* The shopper's answer says itself below; the note stands for a choice made since. */}
      {parcel.ndrNote && (!parcel.request || parcel.request.outcome === "passed_on") && (
        <p className="mt-1 text-stone-600 dark:text-stone-400">{parcel.ndrNote}</p>
      )}
      {parcel.request && parcel.status === "undelivered" && (
        <DeliveryRequestNote
          request={parcel.request}
          service={service}
          courier={parcel.courier}
          awb={parcel.awb}
        />
      )}
      {decidable && (
        <div className="mt-2">
          <StaffNdrChoice
            id={`date-${parcel.number}`}
            busy={busy}
            preferred={parcel.request?.day}
            onReattempt={(date) =>
              act(parcel.number, "ndr", { action: "reattempt", date }, "another attempt asked.")
            }
            onReturn={() => act(parcel.number, "ndr", { action: "return" }, "return to us asked.")}
          />
        </div>
      )}
      {parcel.status === "rto_delivered" && (
        <Button
          type="button"
          disabled={busy}
          className="mt-2"
          onClick={() => act(parcel.number, "received-back", {}, "received back; stock restored.")}
        >
          Mark received back
        </Button>
      )}
    </li>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: shipping") };

/** What a booking will weigh items at: the default parcel, or the items that would stop it (decision 086). */
function ParcelWeights({ weights }: { weights: WeightsSummary }) {
  const { defaultItem, unweighed } = weights;
  const items = `${unweighed} ${unweighed === 1 ? "item" : "items"} on sale`;
  const link = (
    <Link to={WEIGHTS_PAGE} className="font-medium underline">
      {unweighed > 0 ? "Set weights" : "Weights"}
    </Link>
  );
  if (!defaultItem.weightGrams && unweighed > 0) {
    return (
      <Notice tone="info" className="mt-3">
        {items} {unweighed === 1 ? "has" : "have"} no weight, and there is no default parcel: an order with{" "}
        {unweighed === 1 ? "it" : "one of them"} cannot be booked until it is weighed. {link}
      </Notice>
    );
  }
  const box = [defaultItem.lengthCm, defaultItem.breadthCm, defaultItem.heightCm].every(Boolean)
    ? ` in a ${defaultItem.lengthCm} × ${defaultItem.breadthCm} × ${defaultItem.heightCm} cm box`
    : "";
  return (
    <p className="mt-2 text-sm">
      {defaultItem.weightGrams
        ? `An item with no weight of its own is packed as ${defaultItem.weightGrams} g${box}${unweighed > 0 ? ` (${items} without one)` : ""}. `
        : "Every item on sale has its weight. "}
      {link}
    </p>
  );
}
