import { type FormEvent, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { DefaultItemSize } from "../../common/shipping.ts";
import type { ItemWeight, Weights } from "../../common/weights.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input } from "../components/field.tsx";
import { ResultMessage } from "../components/result-message.tsx";
import { RouteError } from "../components/route-error.tsx";
import { NotSavedYet, UnsavedSections, useUnsavedSection } from "../components/unsaved-sections.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";
import { useFormSave } from "../lib/use-form-save.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  return api<Weights>("/admin/shipping/weights");
}

export const handle: RouteHandle = { meta: privatePage("Admin: weights") };
export const ErrorBoundary = RouteError;

const MEASURES = [
  { key: "weightGrams", label: "Weight (g)" },
  { key: "lengthCm", label: "Length (cm)" },
  { key: "breadthCm", label: "Breadth (cm)" },
  { key: "heightCm", label: "Height (cm)" },
] as const;
type Measure = (typeof MEASURES)[number]["key"];
/** What is typed, as typed: a number is read only when the page is saved. */
type Typed = Record<Measure, string>;

const typedOf = (size: DefaultItemSize): Typed => ({
  weightGrams: size.weightGrams?.toString() ?? "",
  lengthCm: size.lengthCm?.toString() ?? "",
  breadthCm: size.breadthCm?.toString() ?? "",
  heightCm: size.heightCm?.toString() ?? "",
});
const sizeOf = (typed: Typed): DefaultItemSize => {
  const read = (text: string) => (text.trim() === "" ? null : Number(text));
  return {
    weightGrams: read(typed.weightGrams),
    lengthCm: read(typed.lengthCm),
    breadthCm: read(typed.breadthCm),
    heightCm: read(typed.heightCm),
  };
};

/**
 * Every product's and combo's packed weight and box on one screen (docs/decisions/086), with the shop's default
 * parcel for items that have none, saved at once: what a booking needs, set in one sitting.
 */
export function Component() {
  return (
    <UnsavedSections>
      <WeightsForm weights={useLoaderData<typeof loader>()} />
    </UnsavedSections>
  );
}

function WeightsForm({ weights }: { weights: Weights }) {
  const [fallback, setFallback] = useState(() => typedOf(weights.defaultItem));
  const [items, setItems] = useState(() => weights.items.map((item) => ({ ...item, typed: typedOf(item) })));
  const { errors, message, saving, save } = useFormSave();
  const section = useUnsavedSection("Weights");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      defaultItem: sizeOf(fallback),
      items: items.map(({ kind, id, typed }) => ({ kind, id, ...sizeOf(typed) })),
    };
    const saved = await save(
      () => api<Weights>("/admin/shipping/weights", { method: "PUT", body }),
      (now) => {
        const left = now.items.filter((item) => item.weightGrams === null).length;
        const packing = now.defaultItem.weightGrams
          ? `${left === 0 ? "Every item has its weight" : `${left} without a weight ${left === 1 ? "is" : "are"} packed as the default parcel`}.`
          : left === 0
            ? "Every item has its weight."
            : `${left} without a weight still ${left === 1 ? "stops its" : "stop their"} booking: give ${left === 1 ? "it" : "them"} one, or set a default parcel.`;
        return `Saved. ${packing}${section.stillUnsaved}`;
      },
    );
    if (!saved) return;
    section.saved();
    setFallback(typedOf(saved.defaultItem));
    setItems(saved.items.map((item) => ({ ...item, typed: typedOf(item) })));
  }

  const type = (index: number, key: Measure, value: string) =>
    setItems((current) =>
      current.map((item, at) => (at === index ? { ...item, typed: { ...item.typed, [key]: value } } : item)),
    );

  return (
    <div>
      <Link to="/admin/shipping" className="text-sm underline">
        ← Shipping
      </Link>
      <h1 className="mt-2 font-serif text-3xl font-semibold">Weights</h1>
      <p className="mt-1 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Couriers price a parcel by its weight, or by its box's size when that is more. Enter each item as it
        is packed, in grams and whole centimetres; the box and filling (150 g) are added to every parcel.
      </p>
      <form
        onSubmit={submit}
        onChange={section.touch}
        aria-label="Weights"
        className="mt-4 grid gap-4"
        noValidate
      >
        <ResultMessage message={message} />
        <section aria-labelledby="default-parcel" className={cardClass}>
          <h2 id="default-parcel" className="font-serif text-xl font-semibold">
            Default parcel
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            How an item with no weight of its own is packed, so no booking waits for the catalogue. Leave the
            weight empty to have such an item stop its booking until it is weighed.
          </p>
          <SizeInputs
            name="Default parcel"
            typed={fallback}
            errorOf={(key) => errors[`defaultItem.${key}`]}
            onType={(key, value) => setFallback((current) => ({ ...current, [key]: value }))}
          />
        </section>
        <section aria-labelledby="item-weights" className={cardClass}>
          <h2 id="item-weights" className="font-serif text-xl font-semibold">
            Products and combos
          </h2>
          <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-700">
            {items.map((item, index) => (
              <li key={`${item.kind}:${item.id}`} className="py-3">
                <ItemName item={item} />
                <SizeInputs
                  name={item.name}
                  typed={item.typed}
                  errorOf={(key) => errors[`items.${index}.${key}`]}
                  onType={(key, value) => type(index, key, value)}
                />
              </li>
            ))}
          </ul>
        </section>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={saving}>
            {saving ? "Saving…" : "Save weights"}
          </Button>
          <NotSavedYet unsaved={section.unsaved} />
        </div>
      </form>
    </div>
  );
}

function ItemName({ item }: { item: ItemWeight }) {
  return (
    <p className="flex flex-wrap items-center gap-2 font-medium">
      {item.name}
      {item.kind === "combo" && <span className="text-xs text-stone-600 dark:text-stone-400">Combo</span>}
      {!item.active && <span className="text-xs text-stone-600 dark:text-stone-400">Not on sale</span>}
      {item.weightGrams === null && (
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-50">
          No weight
        </span>
      )}
    </p>
  );
}

function SizeInputs({
  name,
  typed,
  errorOf,
  onType,
}: {
  name: string;
  typed: Typed;
  errorOf: (key: Measure) => string | undefined;
  onType: (key: Measure, value: string) => void;
}) {
  return (
    <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
      {MEASURES.map(({ key, label }) => (
        <Field key={key} label={label} error={errorOf(key)} alert>
          <Input
            type="number"
            inputMode="numeric"
            min="1"
            step="1"
            aria-label={`${name}: ${label.toLowerCase()}`}
            value={typed[key]}
            onChange={(event) => onType(key, event.target.value)}
          />
        </Field>
      ))}
    </div>
  );
}
