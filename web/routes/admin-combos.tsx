import { type ChangeEvent, type Dispatch, type FormEvent, type SetStateAction, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import { formatRupees } from "../../common/money.ts";
import { type AdminCombo, COMBO_BADGES } from "../../common/schemas/combos.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass, Thumbnail } from "../components/card.tsx";
import { Field, FieldError, Input, Options, Select, Textarea } from "../components/field.tsx";
import { EditorForm } from "../features/admin/editor-form.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { uploadPhoto } from "../features/admin/upload-photo.ts";
import { type ParcelSize, ParcelSizeForm } from "../features/shipping/parcel-size-form.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";
import { useShopData } from "../lib/shop-data.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const editing = new URL(request.url).searchParams.get("edit");
  const [list, parcel] = await Promise.all([
    api<{ items: AdminCombo[] }>("/admin/combos"),
    editing && /^[a-z0-9-]{1,80}$/.test(editing)
      ? api<{ size: ParcelSize }>(`/admin/shipping/parcel-sizes/combo/${editing}`).catch(() => null)
      : null,
  ]);
  return { ...list, size: parcel?.size ?? null };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: combos") };

const hiddenTone = "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100";
const liveTone = "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100";

export function Component() {
  const { items, size } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const editing = params.get("edit");
  const creating = params.get("new") === "1";
  const current = editing ? items.find((item) => item.id === editing) : undefined;
  const close = () => setParams({});
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-serif text-3xl font-semibold">Combos</h1>
        {!creating && (
          <Link to="?new=1" className={buttonClass()}>
            New combo
          </Link>
        )}
      </div>
      {(creating || current) && (
        <ComboEditor key={current?.id ?? "new"} combo={current ?? null} onDone={close} />
      )}
      {current && size && (
        <ParcelSizeForm key={`parcel-${current.id}`} kind="combo" id={current.id} size={size} />
      )}
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Combos">
        {items.map((combo) => (
          <li key={combo.id} className={cardClass}>
            <div className="flex items-start justify-between gap-2">
              <p className="font-semibold">{combo.title}</p>
              <span
                className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${combo.active ? liveTone : hiddenTone}`}
              >
                {combo.active ? "Shown" : "Hidden"}
              </span>
            </div>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{combo.badge}</p>
            <ul className="mt-2 list-inside list-disc text-sm">
              {combo.products.map((product) => (
                <li key={product.slug}>
                  {product.name}
                  {!product.active && <span className="text-red-700 dark:text-red-400"> (hidden)</span>}
                </li>
              ))}
            </ul>
            <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-stone-500 dark:text-stone-400">Sale price</dt>
              <dd>{formatRupees(combo.salePricePaise)}</dd>
              <dt className="text-stone-500 dark:text-stone-400">Original</dt>
              <dd>{formatRupees(combo.originalPricePaise)}</dd>
              <dt className="text-stone-500 dark:text-stone-400">Savings</dt>
              <dd>{formatRupees(combo.savingsPaise)}</dd>
              <dt className="text-stone-500 dark:text-stone-400">Stock</dt>
              <dd>{combo.stock}</dd>
            </dl>
            <Link to={`?edit=${combo.id}`} className={`${buttonClass({ variant: "secondary" })} mt-3 w-full`}>
              Edit<span className="sr-only"> {combo.title}</span>
            </Link>
          </li>
        ))}
      </ul>
      {items.length === 0 && <p className="mt-4 text-stone-600 dark:text-stone-400">No combos yet.</p>}
    </div>
  );
}

const slugFrom = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);

type ComboErrors = Record<string, string>;
type Choice = { slug: string; name: string; pricePaise: number };

const comboError = (errors: ComboErrors, name: string) => (
  <FieldError id={`combo-${name}-error`} error={errors[name]} alert />
);
const describedBy = (errors: ComboErrors, name: string) =>
  errors[name] ? { "aria-describedby": `combo-${name}-error`, "aria-invalid": true } : {};

/** The combo's own picture: uploaded as it is chosen, a refusal said beside the field. */
function useComboPicture(combo: AdminCombo | null, setErrors: Dispatch<SetStateAction<ComboErrors>>) {
  const [picture, setPicture] = useState<AdminCombo["picture"]>(combo?.picture ?? null);
  const [uploading, setUploading] = useState(false);

  async function choosePicture(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file) return;
    setErrors((current) => ({ ...current, picture: "" }));
    setUploading(true);
    try {
      const uploaded = await uploadPhoto(file);
      if (uploaded.ok) setPicture({ key: uploaded.image.key, small: uploaded.image.small });
      else setErrors((current) => ({ ...current, picture: uploaded.problem }));
    } finally {
      setUploading(false);
    }
  }
  return { picture, setPicture, uploading, choosePicture };
}

/** Sends the combo (a new one, or changes to one), then closes the editor; a refusal's messages by their fields. */
function useComboSave(combo: AdminCombo | null, onDone: () => void) {
  const [errors, setErrors] = useState<ComboErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function send(body: Record<string, unknown>) {
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      await api(combo ? `/admin/combos/${combo.id}` : "/admin/combos", {
        method: combo ? "PATCH" : "POST",
        body,
      });
      // Closing the editor changes the address, which runs the loaders again: the list shows the save.
      onDone();
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      const fields = { ...caught.fields };
      for (const key of Object.keys(fields)) {
        if (key.startsWith("benefits.")) fields.benefits ??= fields[key] ?? "";
      }
      setErrors(fields);
      setMessage(
        caught.fields ? "Nothing was saved: please correct the fields marked below." : caught.message,
      );
    } finally {
      setSaving(false);
    }
  }
  return { errors, setErrors, message, saving, send };
}

function BenefitsField({ combo, errors }: { combo: AdminCombo | null; errors: ComboErrors }) {
  return (
    <fieldset className="sm:col-span-2" {...describedBy(errors, "benefits")}>
      <legend className="text-sm font-medium">Three benefits</legend>
      <div className="mt-1 grid gap-2 sm:grid-cols-3">
        {[0, 1, 2].map((index) => (
          <Input
            key={index}
            name={`benefit${index + 1}`}
            aria-label={`Benefit ${index + 1}`}
            defaultValue={combo?.benefits[index]}
          />
        ))}
      </div>
      {comboError(errors, "benefits")}
    </fieldset>
  );
}

function ProductChoices({
  choices,
  chosen,
  setChosen,
  errors,
}: {
  choices: Choice[];
  chosen: string[];
  setChosen: (chosen: string[]) => void;
  errors: ComboErrors;
}) {
  return (
    <fieldset className="sm:col-span-2" {...describedBy(errors, "productSlugs")}>
      <legend className="text-sm font-medium">Products (2 or 3)</legend>
      <div className="mt-1 grid max-h-72 gap-1 overflow-y-auto rounded-md border border-stone-200 p-2 sm:grid-cols-2 dark:border-stone-700">
        {choices.map((choice) => (
          <label key={choice.slug} className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={chosen.includes(choice.slug)}
              onChange={(event) =>
                setChosen(
                  event.target.checked
                    ? [...chosen, choice.slug]
                    : chosen.filter((slug) => slug !== choice.slug),
                )
              }
            />
            <span className="flex-1">{choice.name}</span>
            <span className="text-stone-500 dark:text-stone-400">{formatRupees(choice.pricePaise)}</span>
          </label>
        ))}
      </div>
      {comboError(errors, "productSlugs")}
    </fieldset>
  );
}

function PriceFields({
  sale,
  setSale,
  original,
  salePaise,
  error,
}: {
  sale: string;
  setSale: (sale: string) => void;
  original: number;
  salePaise: number;
  error?: string;
}) {
  return (
    <>
      <Field id="combo-salePricePaise" label="Sale price (₹)" error={error} alert>
        <Input
          name="sale"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={sale}
          onChange={(event) => setSale(event.target.value)}
        />
      </Field>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 self-end text-sm" aria-label="Worked out">
        <dt className="text-stone-500 dark:text-stone-400">Original price</dt>
        <dd data-testid="combo-original">{formatRupees(original)}</dd>
        <dt className="text-stone-500 dark:text-stone-400">Savings</dt>
        <dd data-testid="combo-savings">
          {salePaise > 0 ? formatRupees(Math.max(0, original - salePaise)) : "–"}
        </dd>
      </dl>
    </>
  );
}

function PictureField({
  upload,
  errors,
}: {
  upload: ReturnType<typeof useComboPicture>;
  errors: ComboErrors;
}) {
  const { picture, setPicture, uploading, choosePicture } = upload;
  return (
    <fieldset className="sm:col-span-2" aria-describedby="combo-picture-hint">
      <legend className="text-sm font-medium">Picture (optional)</legend>
      <p id="combo-picture-hint" className="mt-1 text-xs text-stone-500 dark:text-stone-400">
        A photo of the combo itself: JPEG, PNG or WebP, up to 10 MB, cropped square. Without one, the card
        shows its products' pictures.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {picture && (
          <Thumbnail
            src={picture.small}
            alt="Shown for this combo"
            className="size-24 rounded-md border border-stone-200 bg-white object-cover dark:border-stone-700"
            size={400}
          />
        )}
        <label className={`${buttonClass({ variant: "secondary" })} cursor-pointer`}>
          {uploading ? "Uploading…" : picture ? "Replace picture" : "Upload a picture"}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            disabled={uploading}
            onChange={choosePicture}
            {...describedBy(errors, "picture")}
          />
        </label>
        {picture && (
          <Button type="button" variant="secondary" onClick={() => setPicture(null)}>
            Remove picture
          </Button>
        )}
      </div>
      {comboError(errors, "picture")}
    </fieldset>
  );
}

/** The catalogue as the shop shows it (products on sale), and any hidden product the combo still holds. */
const choicesFor = (products: Choice[], combo: AdminCombo | null): Choice[] => [
  ...products.map((product) => ({
    slug: product.slug,
    name: product.name,
    pricePaise: product.pricePaise,
  })),
  ...(combo?.products.filter((member) => !products.some((product) => product.slug === member.slug)) ?? []),
];

function AboutTheCombo({
  combo,
  title,
  setTitle,
  errors,
}: {
  combo: AdminCombo | null;
  title: string;
  setTitle: (title: string) => void;
  errors: ComboErrors;
}) {
  return (
    <>
      <Field id="combo-title" label="Title" error={errors.title} alert>
        <Input name="title" value={title} onChange={(event) => setTitle(event.target.value)} />
      </Field>
      {!combo && (
        <Field
          id="combo-id"
          label="Address"
          error={errors.id}
          alert
          hint={errors.id ? undefined : <>/combo/{slugFrom(title) || "…"} unless you type another.</>}
        >
          <Input name="id" placeholder={slugFrom(title) || "e.g. festive-gift-combo"} className="font-mono" />
        </Field>
      )}
      <Field
        id="combo-description"
        label="Description"
        error={errors.description}
        alert
        className="sm:col-span-2"
      >
        <Textarea name="description" rows={3} defaultValue={combo?.description} />
      </Field>
      <Field id="combo-badge" label="Badge" error={errors.badge} alert>
        <Select name="badge" defaultValue={combo?.badge ?? COMBO_BADGES[0]}>
          <Options values={COMBO_BADGES} />
        </Select>
      </Field>
    </>
  );
}

function ComboEditor({ combo, onDone }: { combo: AdminCombo | null; onDone: () => void }) {
  const { products } = useShopData();
  const [chosen, setChosen] = useState<string[]>(combo?.products.map((product) => product.slug) ?? []);
  const [title, setTitle] = useState(combo?.title ?? "");
  const [sale, setSale] = useState(combo ? String(combo.salePricePaise / 100) : "");
  const { errors, setErrors, message, saving, send } = useComboSave(combo, onDone);
  const upload = useComboPicture(combo, setErrors);

  const choices = choicesFor(products, combo);
  const priceOf = (slug: string) => choices.find((choice) => choice.slug === slug)?.pricePaise ?? 0;
  const original = chosen.reduce((sum, slug) => sum + priceOf(slug), 0);
  const salePaise = Math.round(Number(sale || "0") * 100);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: Record<string, unknown> = {
      title: title.trim(),
      description: text("description"),
      badge: text("badge"),
      benefits: [text("benefit1"), text("benefit2"), text("benefit3")],
      productSlugs: chosen,
      salePricePaise: salePaise,
      active: form.get("active") === "on",
      picture: upload.picture?.key ?? null,
    };
    if (!combo) {
      body.id = text("id") || slugFrom(title);
      body.stock = Number(text("stock") || "0");
    }
    return send(body);
  }

  return (
    <EditorForm
      title={combo ? `Edit ${combo.title}` : "New combo"}
      message={message}
      onSubmit={submit}
      submitLabel={combo ? "Save changes" : "Create combo"}
      saving={saving}
      busy={saving || upload.uploading}
      onCancel={onDone}
    >
      <AboutTheCombo combo={combo} title={title} setTitle={setTitle} errors={errors} />
      <BenefitsField combo={combo} errors={errors} />
      <ProductChoices choices={choices} chosen={chosen} setChosen={setChosen} errors={errors} />
      <PriceFields
        sale={sale}
        setSale={setSale}
        original={original}
        salePaise={salePaise}
        error={errors.salePricePaise}
      />
      {!combo && (
        <Field
          id="combo-stock"
          label="Stock"
          error={errors.stock}
          alert
          hint={errors.stock ? undefined : <>Later changed on the Stock page.</>}
        >
          <Input name="stock" type="number" min={0} step={1} inputMode="numeric" defaultValue={0} />
        </Field>
      )}
      <PictureField upload={upload} errors={errors} />
      <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
        <input type="checkbox" name="active" defaultChecked={combo ? combo.active : true} /> Shown in the shop
      </label>
    </EditorForm>
  );
}
