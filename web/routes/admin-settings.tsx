import { type FormEvent, type InputHTMLAttributes, useState } from "react";
import { type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import type { FreeShippingBasis } from "../../common/cart.ts";
import type { CartReminderSettings } from "../../common/cart-reminders.ts";
import { brandPalette, checkBrandColour, TEXT_CONTRAST_AA } from "../../common/contrast.ts";
import type { FunnelSettings } from "../../common/funnel.ts";
import { formatRupees, typedRupeesAsPaise } from "../../common/money.ts";
import type { HeroSlide } from "../../common/schemas/hero-slides.ts";
import type { GuestDeliverySms, ShopSettings } from "../../common/schemas/settings.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, FieldError, Input, useFieldWiring } from "../components/field.tsx";
import { ResultMessage } from "../components/result-message.tsx";
import { NotSavedYet, UnsavedSections, useUnsavedSection } from "../components/unsaved-sections.tsx";
import { GuestDeliverySmsSwitch } from "../features/admin/guest-delivery-sms-switch.tsx";
import { HeroSlidesEditor } from "../features/admin/hero-slides-editor.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { uploadPhoto } from "../features/admin/upload-photo.ts";
import { FunnelCountingSwitch } from "../features/analytics/funnel-switch.tsx";
import { CartReminderSettingsForm } from "../features/cart-reminders/reminder-settings-form.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";
import { forgetShopConfig } from "../lib/shop-config.ts";
import { useFormSave } from "../lib/use-form-save.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const [settings, { slides }, funnel, reminders, guestSms] = await Promise.all([
    api<ShopSettings>("/admin/settings"),
    api<{ slides: HeroSlide[] }>("/admin/settings/hero-slides"),
    api<FunnelSettings>("/admin/analytics/funnel/settings"),
    api<CartReminderSettings>("/admin/cart-reminders/settings"),
    api<GuestDeliverySms>("/admin/settings/guest-delivery-sms"),
  ]);
  return { settings, slides, funnel, reminders, guestSms };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: settings") };

/** The shop's own green, which the pages use while the owner has chosen no colour. */
const DEFAULT_BRAND = "#166534";

type Draft = {
  shopName: string;
  brandColour: string | null;
  logo: ShopSettings["logo"];
  shippingFee: string;
  freeShippingMin: string;
  freeShippingBasis: FreeShippingBasis;
};

/** The API's name for each field of the draft, under which it names a refusal. */
const FIELD_OF: Record<keyof Draft, string> = {
  shopName: "shopName",
  brandColour: "brandColour",
  logo: "logo",
  shippingFee: "shippingFeePaise",
  freeShippingMin: "freeShippingMinPaise",
  freeShippingBasis: "freeShippingBasis",
};

const rupeesText = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

const draftOf = (settings: ShopSettings): Draft => ({
  shopName: settings.shopName,
  brandColour: settings.brandColour,
  logo: settings.logo,
  shippingFee: rupeesText(settings.shipping.shippingFeePaise),
  freeShippingMin: rupeesText(settings.shipping.freeShippingMinPaise),
  freeShippingBasis: settings.shipping.freeShippingBasis,
});

export function Component() {
  const { settings, slides, funnel, reminders, guestSms } = useLoaderData<typeof loader>();
  return (
    <UnsavedSections>
      <ShopSettingsForm settings={settings} />
      <HeroSlidesEditor slides={slides} />
      <GuestDeliverySmsSwitch on={guestSms.on} />
      <FunnelCountingSwitch counting={funnel.counting} />
      <CartReminderSettingsForm settings={reminders} />
    </UnsavedSections>
  );
}

const SETTINGS_SECTION = "Shop settings";

function ShopSettingsForm({ settings }: { settings: ShopSettings }) {
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const { errors, setErrors, message, saving, save } = useFormSave();
  const [uploading, setUploading] = useState(false);
  const section = useUnsavedSection(SETTINGS_SECTION);
  const change = (patch: Partial<Draft>) => {
    section.touch();
    setDraft((current) => ({ ...current, ...patch }));
    // A field's refusal is about what was sent: once it is edited, the message no longer applies.
    setErrors((current) => {
      const left = { ...current };
      for (const key of Object.keys(patch)) delete left[FIELD_OF[key as keyof Draft]];
      return left;
    });
  };

  const colour = draft.brandColour ?? DEFAULT_BRAND;
  const contrast = checkBrandColour(colour);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      shopName: draft.shopName,
      brandColour: draft.brandColour,
      logo: draft.logo?.key ?? null,
      shippingFeePaise: typedRupeesAsPaise(draft.shippingFee),
      freeShippingMinPaise: typedRupeesAsPaise(draft.freeShippingMin),
      freeShippingBasis: draft.freeShippingBasis,
    };
    const saved = await save(
      () => api<ShopSettings>("/admin/settings", { method: "PUT", body }),
      ({ shipping }) =>
        `Saved. Shoppers see it now: shipping ${formatRupees(shipping.shippingFeePaise)}, free from ${formatRupees(shipping.freeShippingMinPaise)}.${section.stillUnsaved}`,
    );
    if (!saved) return;
    section.saved();
    setDraft(draftOf(saved));
    forgetShopConfig();
    revalidator.revalidate();
  }

  async function chooseLogo(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    setErrors(({ logo: _, ...rest }) => rest);
    try {
      const result = await uploadPhoto(file, "logo");
      if (result.ok) change({ logo: result.image });
      else setErrors((current) => ({ ...current, logo: result.problem }));
    } finally {
      setUploading(false);
    }
  }

  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Settings</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The shop's name, look, shipping charges and home page slides. A change shows on every page as soon as
        it is saved.
      </p>
      <form onSubmit={submit} aria-label="Shop settings" className="mt-4 grid gap-4" noValidate>
        <ResultMessage message={message} />
        {!settings.updatedAt && (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Nothing is saved here yet: until you save, the shop uses the values it was installed with.
          </p>
        )}
        <section className={`${cardClass} grid gap-4 sm:grid-cols-2`} aria-labelledby="settings-shipping">
          <h2 id="settings-shipping" className="font-serif text-xl font-semibold sm:col-span-2">
            Shipping
          </h2>
          <Field
            id="settings-shippingFeePaise"
            label="Shipping fee (₹)"
            error={errors.shippingFeePaise}
            alert
          >
            <Input
              inputMode="decimal"
              value={draft.shippingFee}
              onChange={(event) => change({ shippingFee: event.target.value })}
            />
          </Field>
          <Field
            id="settings-freeShippingMinPaise"
            label="Free shipping from (₹)"
            hint="Orders at or above this value ship free. 0 ships every order free."
            error={errors.freeShippingMinPaise}
            alert
          >
            <Input
              inputMode="decimal"
              value={draft.freeShippingMin}
              onChange={(event) => change({ freeShippingMin: event.target.value })}
            />
          </Field>
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium">The order value compared with it is</legend>
            {(
              [
                ["after_discount", "after the discount (a ₹599 order with 20% off counts as ₹479)"],
                ["before_discount", "before the discount (the same order counts as ₹599)"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="mt-2 flex min-h-11 items-center gap-3 text-sm">
                <input
                  type="radio"
                  name="freeShippingBasis"
                  value={value}
                  checked={draft.freeShippingBasis === value}
                  onChange={() => change({ freeShippingBasis: value })}
                  className="size-5 accent-brand-700"
                />
                {label}
              </label>
            ))}
            <FieldError error={errors.freeShippingBasis} alert />
          </fieldset>
        </section>

        <section className={`${cardClass} grid gap-4 sm:grid-cols-2`} aria-labelledby="settings-brand">
          <h2 id="settings-brand" className="font-serif text-xl font-semibold sm:col-span-2">
            Name and look
          </h2>
          <Field
            id="settings-shopName"
            label="Shop name"
            hint="In the header, page titles, link previews and e-mails."
            error={errors.shopName}
            alert
          >
            <Input
              value={draft.shopName}
              maxLength={60}
              onChange={(event) => change({ shopName: event.target.value })}
            />
          </Field>
          <Field
            id="settings-brandColour"
            label="Brand colour"
            hint="Buttons, links and headings. White text must be readable on it."
            error={errors.brandColour}
            alert
          >
            <div className="mt-1 flex flex-wrap items-center gap-3">
              <ColourInput value={colour} onChange={(event) => change({ brandColour: event.target.value })} />
              <span className="font-mono text-sm">{colour}</span>
              {draft.brandColour !== null && (
                <Button variant="secondary" onClick={() => change({ brandColour: null })}>
                  Use the shop's green
                </Button>
              )}
            </div>
          </Field>
          <BrandPreview colour={colour} name={draft.shopName} logo={draft.logo?.small ?? null} />
          {contrast.problem && !errors.brandColour && (
            <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-400">
              {contrast.problem}
            </p>
          )}
          <div className="sm:col-span-2">
            <p className="text-sm font-medium" id="settings-logo-label">
              Logo
            </p>
            <p className="text-xs text-stone-500 dark:text-stone-400" id="settings-logo-hint">
              A JPEG, PNG or WebP up to 10 MB; shown square, beside the name.
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-3">
              {draft.logo ? (
                <img
                  src={draft.logo.small}
                  alt="The logo as the header shows it"
                  className="size-16 rounded-md border border-stone-200 object-cover dark:border-stone-700"
                />
              ) : (
                <span className="text-sm text-stone-600 dark:text-stone-400">
                  No logo: the name stands alone.
                </span>
              )}
              <label className={`${buttonClass({ variant: "secondary" })} min-h-11 cursor-pointer`}>
                {uploading ? "Uploading…" : draft.logo ? "Replace logo" : "Upload logo"}
                <input
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  className="sr-only"
                  aria-describedby="settings-logo-hint"
                  disabled={uploading}
                  onChange={(event) => void chooseLogo(event.target.files?.[0])}
                />
              </label>
              {draft.logo && (
                <Button variant="secondary" onClick={() => change({ logo: null })}>
                  Remove logo
                </Button>
              )}
            </div>
            <FieldError error={errors.logo} alert />
          </div>
        </section>
        <div>
          <Button type="submit" disabled={saving || uploading}>
            {saving ? "Saving…" : "Save settings"}
          </Button>{" "}
          <NotSavedYet unsaved={section.unsaved} />
        </div>
      </form>
    </div>
  );
}

/** The header and a button in the chosen colour, in light and dark, before anything is saved. */
function BrandPreview({ colour, name, logo }: { colour: string; name: string; logo: string | null }) {
  const shade = brandPalette(colour);
  const { pairs } = checkBrandColour(colour);
  return (
    <section className="grid gap-2 sm:col-span-2 sm:grid-cols-2" aria-label="Preview">
      {(
        [
          ["Light", "#ffffff", shade["700"], shade["700"], "#1c1917"],
          ["Dark", "#1c1917", shade["600"], shade["100"], "#f5f5f4"],
        ] as const
      ).map(([mode, page, button, heading, text]) => (
        <div
          key={mode}
          className="rounded-md border border-stone-200 p-3 dark:border-stone-700"
          style={{ background: page }}
        >
          <p className="text-xs" style={{ color: text }}>
            {mode} mode
          </p>
          <p
            className="mt-1 flex items-center gap-2 font-serif text-lg font-semibold"
            style={{ color: heading }}
          >
            {logo && <img src={logo} alt="" className="size-7 rounded" />}
            {name || "Shop name"}
          </p>
          <span
            className="mt-2 inline-block rounded-md px-3 py-1.5 text-sm font-medium"
            style={{ background: button, color: "#ffffff" }}
          >
            Add to cart
          </span>
        </div>
      ))}
      <p className="text-xs text-stone-600 sm:col-span-2 dark:text-stone-400">
        {pairs.every((pair) => pair.ratio >= TEXT_CONTRAST_AA)
          ? "Text and buttons in this colour are easy to read, in light and dark mode."
          : "Some text in this colour would be hard to read: choose a darker one."}
      </p>
    </section>
  );
}

/** The colour picker keeps its swatch look; the Field around it names and describes it all the same. */
function ColourInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      type="color"
      {...useFieldWiring(props)}
      className="h-11 w-16 cursor-pointer rounded-md border border-stone-300 bg-white dark:border-stone-600 dark:bg-stone-800"
    />
  );
}
