import { type FormEvent, useState } from "react";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { ResultMessage, type ResultMessageState } from "../../components/result-message.tsx";
import { api, isApiError } from "../../lib/api.ts";

export type ParcelSize = {
  weightGrams: number | null;
  lengthCm: number | null;
  breadthCm: number | null;
  heightCm: number | null;
};

const FIELDS = [
  { key: "weightGrams", label: "Packed weight (g)", max: 30_000 },
  { key: "lengthCm", label: "Length (cm)", max: 150 },
  { key: "breadthCm", label: "Breadth (cm)", max: 150 },
  { key: "heightCm", label: "Height (cm)", max: 150 },
] as const;

/**
 * The weight and box of one product or combo, which couriers price by (docs/decisions/052). Saved on its own,
 * beside the catalogue editor's form, so a courier's needs never block a price or text change.
 */
export function ParcelSizeForm({
  kind,
  id,
  size,
}: {
  kind: "product" | "combo";
  id: string;
  size: ParcelSize;
}) {
  const [values, setValues] = useState(() =>
    Object.fromEntries(FIELDS.map(({ key }) => [key, size[key] === null ? "" : String(size[key])])),
  );
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<ResultMessageState | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await api(`/admin/shipping/parcel-sizes/${kind}/${id}`, {
        method: "PUT",
        body: Object.fromEntries(FIELDS.map(({ key }) => [key, values[key] ? Number(values[key]) : null])),
      });
      setMessage({ kind: "ok", text: "Weight and size saved." });
    } catch (caught) {
      setMessage({ kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} aria-labelledby={`parcel-size-${id}`} className={`${cardClass} mt-6`}>
      <h2 id={`parcel-size-${id}`} className="font-serif text-xl font-semibold">
        Weight and box for couriers
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Packed, as it goes in the parcel. Couriers charge by weight, or by the box's size when that is more.
      </p>
      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {FIELDS.map(({ key, label, max }) => (
          <div key={key}>
            <Field id={`${id}-${key}`} label={label}>
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                max={max}
                step={1}
                value={values[key]}
                onChange={(event) => setValues({ ...values, [key]: event.target.value })}
              />
            </Field>
          </div>
        ))}
      </div>
      <Button type="submit" disabled={busy} variant="secondary" className="mt-3">
        {busy ? "Saving…" : "Save weight and size"}
      </Button>
      <ResultMessage message={message} />
    </form>
  );
}
