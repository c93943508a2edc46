import { type FormEvent, useState } from "react";
import { ndrWaiting, type ShipmentView } from "../../../common/shipping.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { api } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";
import { ParcelJourney } from "./parcel-journey.tsx";
import { ReattemptDaySelect, useReattemptDay } from "./reattempt-day.tsx";

/**
 * The shopper's parcel: where it is, every scan, and after a failed delivery the way to ask for another
 * attempt on a day that suits, or to correct the address (the "undelivered" mail links here).
 */
export function ShopperParcelCard({
  number,
  shipment,
  onChanged,
}: {
  number: string;
  shipment: ShipmentView;
  onChanged: (message: string) => void;
}) {
  const [date, setDate] = useReattemptDay();
  const [line1, setLine1] = useState("");
  const [line2, setLine2] = useState("");
  const { busy, error, run } = useRequest();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await api(`/orders/${number}/delivery-attempt`, {
        method: "POST",
        body: { date, ...(line1.trim() ? { line1: line1.trim(), line2: line2.trim() } : {}) },
      });
      onChanged("The courier will try again on the day you chose.");
    });
  }

  return (
    <section aria-labelledby="parcel-heading" className={cardClass}>
      <h2 id="parcel-heading" className="font-serif text-xl font-semibold">
        Your parcel
      </h2>
      <div className="mt-2">
        <ParcelJourney shipment={shipment} />
      </div>
      {ndrWaiting(shipment) && (
        <form
          onSubmit={submit}
          className="mt-4 space-y-2 rounded-md bg-amber-50 p-3 text-sm dark:bg-amber-900/30"
        >
          <p className="font-medium">The courier could not deliver. When should they come again?</p>
          <ReattemptDaySelect id="attempt-date" label="Day" value={date} onChange={setDate} />
          <Field id="attempt-line1" label="Corrected address (only if it was wrong)">
            <Input
              value={line1}
              maxLength={120}
              autoComplete="address-line1"
              onChange={(event) => setLine1(event.target.value)}
            />
          </Field>
          <Field id="attempt-line2" label="Landmark or area">
            <Input
              value={line2}
              maxLength={120}
              autoComplete="address-line2"
              onChange={(event) => setLine2(event.target.value)}
            />
          </Field>
          {error && <Notice tone="error">{error}</Notice>}
          <Button type="submit" disabled={busy}>
            {busy ? "Sending…" : "Ask for another attempt"}
          </Button>
        </form>
      )}
    </section>
  );
}
