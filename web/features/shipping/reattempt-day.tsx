import { useState } from "react";
import { formatEstimateDate } from "../../../common/delivery-estimate.ts";
import { indianDate } from "../../../common/india-time.ts";
import { Button } from "../../components/button.tsx";
import { Field, Select } from "../../components/field.tsx";

/** The next days in India, as YYYY-MM-DD: when a courier may be asked to try a parcel again. */
function nextDays(count: number): string[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, day) => indianDate(new Date(now + (day + 1) * 86_400_000)));
}

/**
 * The day a re-attempt is asked for, tomorrow unless changed; one state for the owner's and the shopper's forms.
 * Staff's form starts at the day the shopper asked for, while it is still among those offered.
 */
export const useReattemptDay = (preferred?: string | null) =>
  useState(() => (preferred && nextDays(3).includes(preferred) ? preferred : (nextDays(1)[0] ?? "")));

/** A labelled choice of the next three days, written as people read them ("Fri, 27 Nov"). */
export function ReattemptDaySelect({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
}) {
  return (
    <Field id={id} label={label} className="mt-2">
      {/* A select renders a pixel shorter than the kit's inputs; 44 px is the floor for a thumb. */}
      <Select className="min-h-11" value={value} onChange={(event) => onChange(event.target.value)}>
        {nextDays(3).map((day) => (
          <option key={day} value={day}>
            {formatEstimateDate(day)}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/**
 * Staff's answer to a failed delivery, on the order's page and in the shipping list alike: the day to try
 * again, then another attempt or the parcel back to the shop.
 */
export function StaffNdrChoice({
  id,
  busy,
  preferred,
  onReattempt,
  onReturn,
}: {
  id: string;
  busy: boolean;
  /** The day the shopper asked for, where there is one. */
  preferred?: string | null;
  onReattempt: (date: string) => void;
  onReturn: () => void;
}) {
  const [date, setDate] = useReattemptDay(preferred);
  return (
    <>
      <ReattemptDaySelect id={id} label="Try again on" value={date} onChange={setDate} />
      <div className="mt-2 flex flex-wrap gap-2">
        <Button type="button" disabled={busy} onClick={() => onReattempt(date)}>
          Ask for another attempt
        </Button>
        <Button type="button" disabled={busy} variant="secondary" onClick={onReturn}>
          Return to us
        </Button>
      </div>
    </>
  );
}
