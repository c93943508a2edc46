import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { formatRupees } from "../../../common/money.ts";
import type { OrderStatus } from "../../../common/order-lifecycle.ts";
import type { CourierChoice, Parcel, ShipmentView } from "../../../common/shipping.ts";
import { WEIGHTS_PAGE } from "../../../common/weights.ts";
import { Button, buttonClass } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { ChoiceCard } from "../../components/choice-card.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, Input } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";
import { DeliveryRequestNote } from "./delivery-request-note.tsx";
import { ParcelJourney } from "./parcel-journey.tsx";
import { StaffNdrChoice } from "./reattempt-day.tsx";

type Choices = { couriers: CourierChoice[]; parcel: Parcel; byDefault: string[] };

const errorText = (caught: unknown) => (isApiError(caught) ? caught.message : "Something went wrong.");

/**
 * The order's parcel on staff's order page: "Book shipment" while the order is confirmed or packed, then the
 * label, the scans, and the choices a failed delivery or a returned parcel asks for.
 */
export function AdminShipmentPanel({
  number,
  status,
  connected,
  shipment,
  onChanged,
}: {
  number: string;
  status: OrderStatus;
  connected: boolean;
  shipment: ShipmentView | null;
  onChanged: (message: string) => void;
}) {
  const [booking, setBooking] = useState(false);
  const [choices, setChoices] = useState<Choices | null>(null);
  const { busy, error, run } = useRequest(errorText);

  if (!connected && !shipment) return null;
  const bookable = !shipment && (status === "confirmed" || status === "packed");
  if (!shipment && !bookable) return null;

  async function act(path: string, body: Record<string, unknown>, done: string) {
    await run(async () => {
      await api(`/admin/shipping/orders/${number}/${path}`, { method: "POST", body });
      onChanged(done);
    });
  }

  return (
    <section aria-labelledby="parcel-heading" className={cardClass}>
      <h2 id="parcel-heading" className="font-serif text-xl font-semibold">
        Parcel
      </h2>
      {bookable && (
        <>
          <p className="mt-2 text-sm">
            Book a courier, print the label, and the courier collects the parcel.
          </p>
          <Button
            type="button"
            disabled={busy}
            className="mt-3 w-full sm:w-auto"
            onClick={async () => {
              // The couriers are asked when staff ask, not on every visit to the order (each ask is a call to
              // the aggregator).
              await run(async () => {
                setChoices(await api<Choices>(`/admin/shipping/orders/${number}/couriers`));
                setBooking(true);
              });
            }}
          >
            {busy ? "Asking couriers…" : "Book shipment"}
          </Button>
          <BookDialog
            open={booking}
            number={number}
            choices={choices}
            onClose={() => setBooking(false)}
            onBooked={(message) => {
              setBooking(false);
              onChanged(message);
            }}
          />
        </>
      )}
      {shipment && (
        <div className="mt-2 space-y-3">
          <ParcelJourney shipment={shipment} />
          <p className="text-sm text-stone-700 dark:text-stone-300">
            {shipment.service}
            {shipment.chargesPaise !== null ? ` · charged ${formatRupees(shipment.chargesPaise)}` : ""}
            {shipment.weightGrams ? ` · ${shipment.weightGrams} g` : ""}
            {shipment.reference ? ` · ${shipment.service} order ${shipment.reference}` : ""}
          </p>
          {shipment.codAmountPaise !== null && (
            <p className="text-sm font-medium text-stone-900 dark:text-stone-100">
              The courier collects {formatRupees(shipment.codAmountPaise)}
              <span className="block font-normal text-stone-600 dark:text-stone-400">
                the amount sent to {shipment.service}; its panel should show the same
              </span>
            </p>
          )}
          <a
            href={`/api/admin/shipping/orders/${number}/label.pdf`}
            target="_blank"
            rel="noreferrer"
            className={buttonClass({ variant: "secondary" })}
          >
            Print label
          </a>
          {shipment.status === "undelivered" &&
            (shipment.ndr?.state === "open" || shipment.ndr?.state === "reattempt_requested") && (
              <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
                <p className="font-medium">
                  Not delivered: {shipment.ndr?.reason ?? "the courier could not deliver"}
                </p>
                {/* The shopper's answer says itself below; the note stands for a choice made since. */}
                {shipment.ndr?.note && (!shipment.request || shipment.request.outcome === "passed_on") && (
                  <p className="mt-1">{shipment.ndr.note}</p>
                )}
                {shipment.request && (
                  <DeliveryRequestNote
                    request={shipment.request}
                    service={shipment.service}
                    courier={shipment.courier}
                    awb={shipment.awb}
                  />
                )}
                <StaffNdrChoice
                  id="reattempt-date"
                  busy={busy}
                  preferred={shipment.request?.day}
                  onReattempt={(date) =>
                    act("ndr", { action: "reattempt", date }, "Another attempt asked of the courier.")
                  }
                  onReturn={() =>
                    act("ndr", { action: "return" }, "The courier is asked to bring the parcel back.")
                  }
                />
              </div>
            )}
          {shipment.status === "rto_delivered" && !shipment.receivedBack && (
            <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              <p>
                The courier has brought the parcel back. Open it, check it, then mark it received: the stock
                goes back on the shelf and a credit note is issued.
              </p>
              <Button
                type="button"
                disabled={busy}
                className="mt-2"
                onClick={() => act("received-back", {}, "Parcel received back; stock restored.")}
              >
                Mark received back
              </Button>
            </div>
          )}
        </div>
      )}
      {error && (
        <Notice tone="error" className="mt-3">
          <BookingRefusal error={error} />
        </Notice>
      )}
    </section>
  );
}

/**
 * A booking refused for want of a weight names the Weights page by its path (for whoever reads the API): here
 * the path becomes the way there, one tap (decision 086).
 */
function BookingRefusal({ error }: { error: string }) {
  const path = ` (${WEIGHTS_PAGE})`;
  if (!error.includes(path)) return <>{error}</>;
  return (
    <>
      {error.replace(path, "")}{" "}
      <Link to={WEIGHTS_PAGE} className="font-medium underline">
        Open the Weights page
      </Link>
    </>
  );
}

/** The couriers serving the PIN, cheapest first; "Cheapest" and "Fastest" marked; one is booked. */
function BookDialog({
  open,
  number,
  choices,
  onClose,
  onBooked,
}: {
  open: boolean;
  number: string;
  choices: Choices | null;
  onClose: () => void;
  onBooked: (message: string) => void;
}) {
  // Priced again at the weight staff weighed the packed parcel at; booked at it too.
  const [reweighed, setReweighed] = useState<{ grams: number; choices: Choices } | null>(null);
  const [weighedText, setWeighedText] = useState("");
  const shown = reweighed?.choices ?? choices;
  const cheapest = shown?.couriers.find((courier) => courier.cheapest)?.courierId ?? null;
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = picked ?? cheapest;
  const { busy, error, run } = useRequest(errorText);

  async function reprice(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const grams = Number(weighedText);
    await run(async () => {
      const priced = await api<Choices>(
        `/admin/shipping/orders/${number}/couriers?weighedGrams=${encodeURIComponent(weighedText.trim())}`,
      );
      setReweighed({ grams, choices: priced });
      setPicked(null);
    });
  }

  async function book() {
    if (!chosen || busy) return;
    await run(async () => {
      const answer = await api<{ shipment: ShipmentView }>(`/admin/shipping/orders/${number}/book`, {
        method: "POST",
        body: { courierId: chosen, ...(reweighed ? { weighedGrams: reweighed.grams } : {}) },
      });
      onBooked(`Booked with ${answer.shipment.courier}, AWB ${answer.shipment.awb}. Print the label.`);
    });
  }

  return (
    <Dialog open={open} title={`Book a courier for ${number}`} onClose={onClose}>
      {shown && (
        <form onSubmit={reprice} className="mb-3 flex flex-wrap items-end gap-2" aria-label="Weighed parcel">
          <Field label="Weighed the packed parcel? Its weight (g)" className="grow">
            <Input
              type="number"
              inputMode="numeric"
              min="1"
              max="30000"
              step="1"
              value={weighedText}
              onChange={(event) => setWeighedText(event.target.value)}
            />
          </Field>
          <Button type="submit" variant="secondary" disabled={busy || weighedText.trim() === ""}>
            Price at this weight
          </Button>
        </form>
      )}
      {shown && (
        <fieldset>
          <legend className="text-sm">
            Parcel of {shown.parcel.weightGrams} g{reweighed ? " as weighed" : ""}, {shown.parcel.lengthCm} ×{" "}
            {shown.parcel.breadthCm} × {shown.parcel.heightCm} cm.
            {shown.byDefault.length > 0 && (
              <>
                {" "}
                {shown.byDefault.join(", ")} packed as the default parcel (no weight of{" "}
                {shown.byDefault.length === 1 ? "its" : "their"} own:{" "}
                <Link to={WEIGHTS_PAGE} className="underline">
                  set it
                </Link>
                ).
              </>
            )}{" "}
            Couriers serving the PIN:
          </legend>
          <ul className="mt-2 space-y-2">
            {shown.couriers.map((courier) => (
              <li key={courier.courierId}>
                <ChoiceCard
                  name="courier"
                  value={String(courier.courierId)}
                  checked={chosen === courier.courierId}
                  onChange={() => setPicked(courier.courierId)}
                  className="text-sm"
                >
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    {courier.name}
                    {courier.cheapest && (
                      <span className="rounded bg-brand-100 px-1.5 py-0.5 text-xs text-brand-800 dark:bg-brand-800 dark:text-brand-50">
                        Cheapest
                      </span>
                    )}
                    {courier.fastest && (
                      <span className="rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-900 dark:bg-sky-900 dark:text-sky-50">
                        Fastest
                      </span>
                    )}
                  </span>
                  <span className="block text-stone-700 dark:text-stone-300">
                    {formatRupees(courier.ratePaise)}
                    {courier.estimatedDays ? ` · ${courier.estimatedDays} days` : ""}
                    {courier.etd ? ` (by ${courier.etd})` : ""}
                  </span>
                </ChoiceCard>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {error && (
        <Notice tone="error" className="mt-3">
          <BookingRefusal error={error} />
        </Notice>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          Not now
        </Button>
        <Button type="button" disabled={!chosen || busy} onClick={book}>
          {busy ? "Booking…" : "Book courier"}
        </Button>
      </div>
    </Dialog>
  );
}
