import { type FormEvent, useState } from "react";
import { deliveryRequestWords } from "../../../common/delivery-request.ts";
import { ndrWaiting, type ShipmentView } from "../../../common/shipping.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";
import { ParcelJourney } from "./parcel-journey.tsx";
import { ReattemptDaySelect, useReattemptDay } from "./reattempt-day.tsx";

/**
 * The shopper's parcel: where it is, every scan, and after a failed delivery the way to ask for another
 * attempt on a day that suits, or to correct the address or mobile (the "undelivered" mail links here). The
 * same card on an account's order page and on a guest's, which posts to `attemptPath` (the guest's carries
 * the link's token). What they asked stays in view, in plain words, whatever the courier answered.
 */
export function ShopperParcelCard({
  attemptPath,
  shipment,
  wide = false,
  onChanged,
}: {
  attemptPath: string;
  shipment: ShipmentView;
  /** Laid across the page (above the order, while a failed delivery is open): the journey beside the form. */
  wide?: boolean;
  /** After an answer is taken: the page reads the order and the parcel again. */
  onChanged: () => void;
}) {
  const [date, setDate] = useReattemptDay();
  const [line1, setLine1] = useState("");
  const [line2, setLine2] = useState("");
  const [phone, setPhone] = useState("");
  // The server's words for the answer just given, until the parcel is read again with it.
  const [said, setSaid] = useState<string | null>(null);
  // A field the server refused is marked beside it, in the schema's words (the browser does not load it).
  const [fields, setFields] = useState<Record<string, string>>({});
  const { busy, error, run } = useRequest((caught) => {
    const refused = isApiError(caught) ? (caught.fields ?? {}) : {};
    setFields(refused);
    if (refused.date) return `Day: ${refused.date}`;
    if (Object.keys(refused).length) return "Please check the fields marked above.";
    return isApiError(caught) ? caught.message : "Something went wrong. Please try again.";
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    await run(async () => {
      const answer = await api<{ message: string }>(attemptPath, {
        method: "POST",
        body: {
          date,
          // A landmark without the address is sent too: the server says what is missing, rather than the
          // landmark being dropped without a word.
          ...(line1.trim() ? { line1: line1.trim() } : {}),
          ...(line2.trim() ? { line2: line2.trim() } : {}),
          ...(phone.trim() ? { phone: phone.trim() } : {}),
        },
      });
      setSaid(answer.message);
      onChanged();
    });
  }

  const asked = shipment.status === "undelivered" && shipment.ndr?.state === "reattempt_requested";
  const answer = asked && shipment.request ? deliveryRequestWords(shipment.request) : said;
  return (
    <section aria-labelledby="parcel-heading" className={cardClass}>
      <h2 id="parcel-heading" className="font-serif text-xl font-semibold">
        Your parcel
      </h2>
      <div className={wide ? "lg:grid lg:grid-cols-2 lg:items-start lg:gap-6" : undefined}>
        <div className="mt-2">
          <ParcelJourney shipment={shipment} />
        </div>
        <div>
          {answer && (
            <Notice tone="info" className="mt-4">
              {answer}
            </Notice>
          )}
          {ndrWaiting(shipment) && !said && (
            <form
              onSubmit={submit}
              aria-labelledby="attempt-heading"
              className="mt-4 space-y-3 rounded-md bg-amber-50 p-3 text-sm dark:bg-amber-900/30"
            >
              <p id="attempt-heading" className="font-medium">
                The courier could not deliver. When should they come again?
              </p>
              <ReattemptDaySelect id="attempt-date" label="Day" value={date} onChange={setDate} />
              <Field
                id="attempt-line1"
                label="Corrected address (only if it was wrong)"
                error={fields.line1 ?? null}
              >
                <Input
                  value={line1}
                  maxLength={120}
                  autoComplete="address-line1"
                  onChange={(event) => setLine1(event.target.value)}
                />
              </Field>
              <Field id="attempt-line2" label="Landmark or area" error={fields.line2 ?? null}>
                <Input
                  value={line2}
                  maxLength={120}
                  autoComplete="address-line2"
                  onChange={(event) => setLine2(event.target.value)}
                />
              </Field>
              <Field
                id="attempt-phone"
                label="Corrected mobile (only if it was wrong)"
                hint="The courier calls this number before coming."
                error={fields.phone ?? null}
              >
                <Input
                  value={phone}
                  type="tel"
                  inputMode="tel"
                  maxLength={16}
                  autoComplete="tel-national"
                  onChange={(event) => setPhone(event.target.value)}
                />
              </Field>
              {error && <Notice tone="error">{error}</Notice>}
              <Button type="submit" disabled={busy} className="w-full sm:w-auto">
                {busy ? "Sending…" : "Ask for another attempt"}
              </Button>
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
