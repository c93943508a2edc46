import { type ChangeEvent, type FormEvent, type InputHTMLAttributes, useRef, useState } from "react";
import { type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { INDIAN_STATE_NAMES } from "../../common/india.ts";
import type { PromoBanner, ShopDetails } from "../../common/schemas/shop.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input, Options, Select } from "../components/field.tsx";
import { ResultMessage } from "../components/result-message.tsx";
import { NotSavedYet, UnsavedSections, useUnsavedSection } from "../components/unsaved-sections.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { cityForPin, completePin, lookUpPin } from "../lib/pin-lookup.ts";
import { requireOwnerUser } from "../lib/session.ts";
import { forgetShopConfig } from "../lib/shop-config.ts";
import { type FieldErrors, useFormSave } from "../lib/use-form-save.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const [details, banner] = await Promise.all([
    api<ShopDetails>("/admin/shop/details"),
    api<PromoBanner>("/admin/shop/banner"),
  ]);
  return { details, banner };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: the shop") };

export function Component() {
  const { details, banner } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">The shop</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The offer at the top of every page, and who the seller is: shown to shoppers on the contact page and
        in the footer, and printed on invoices.
      </p>
      <UnsavedSections>
        <BannerForm banner={banner} />
        <DetailsForm details={details} />
      </UnsavedSections>
    </div>
  );
}

/**
 * Sends a form's fields to the API; on a 400 shows each field's message beside it. The form is one section
 * of the screen (`section`): its "saved" says when the other still holds changes.
 */
function useSave(path: string, name: string) {
  const revalidator = useRevalidator();
  const form = useFormSave();
  const section = useUnsavedSection(name);
  const save = async (body: Record<string, unknown>, saved: string) => {
    const done = await form.save(
      async () => {
        await api(path, { method: "PUT", body });
        // The footer and contact page show the seller's details from the shop's config.
        forgetShopConfig();
        revalidator.revalidate();
        return true;
      },
      () => `${saved}${section.stillUnsaved}`,
    );
    if (done) section.saved();
  };
  return { ...form, save, section };
}

/** A new PIN fills the city and state from India Post's directory, as the address form at checkout does. */
function usePinFill(details: ShopDetails) {
  // The city last filled in from a PIN, and the PIN being looked up (a later one wins).
  const filledCity = useRef("");
  const lookingUp = useRef("");

  return async function fillFromPin(event: ChangeEvent<HTMLInputElement>) {
    const pin = completePin(event.target.value);
    const form = event.target.form;
    lookingUp.current = pin ?? "";
    if (!pin || !form) return;
    try {
      const found = await lookUpPin(pin);
      if (lookingUp.current !== pin) return;
      const city = form.elements.namedItem("city");
      const state = form.elements.namedItem("state");
      if (city instanceof HTMLInputElement) {
        const saved = details.address;
        const replaceable =
          saved && pin !== saved.pin ? [filledCity.current, saved.city] : [filledCity.current];
        city.value = cityForPin(city.value, found.city, replaceable);
        if (city.value === found.city) filledCity.current = found.city;
      }
      if (state instanceof HTMLSelectElement) state.value = found.state;
    } catch {
      // An unknown PIN fills nothing; saving names what is wrong with it.
    }
  };
}

const detailInput = (
  name: string,
  value: string | null | undefined,
  extra: InputHTMLAttributes<HTMLInputElement> = {},
) => <Input name={name} defaultValue={value ?? ""} {...extra} />;

/** The registered address; a new PIN fills its city and state. */
function AddressFields({ details, errors }: { details: ShopDetails; errors: FieldErrors }) {
  const fillFromPin = usePinFill(details);
  return (
    <>
      <Field
        id="shop-addressLine1"
        label="Registered address"
        hint="Needed on invoices, and shown on the contact page."
        error={errors.addressLine1}
        alert
        className="sm:col-span-2"
      >
        {detailInput("addressLine1", details.address?.line1, { autoComplete: "address-line1" })}
      </Field>
      <Field
        id="shop-addressLine2"
        label="Address, second line (optional)"
        error={errors.addressLine2}
        alert
        className="sm:col-span-2"
      >
        {detailInput("addressLine2", details.address?.line2, { autoComplete: "address-line2" })}
      </Field>
      <Field id="shop-city" label="City" error={errors.city} alert>
        {detailInput("city", details.address?.city, { autoComplete: "address-level2" })}
      </Field>
      <Field id="shop-pin" label="PIN code" error={errors.pin} alert>
        {detailInput("pin", details.address?.pin, {
          inputMode: "numeric",
          maxLength: 6,
          autoComplete: "postal-code",
          onChange: fillFromPin,
        })}
      </Field>
      <Field
        id="shop-state"
        label="State"
        hint="GST invoices name its state code."
        error={errors.state}
        alert
      >
        <Select name="state" defaultValue={details.address?.state ?? ""}>
          <option value="" disabled>
            Choose a state
          </option>
          <Options values={INDIAN_STATE_NAMES} />
        </Select>
      </Field>
    </>
  );
}

/** The GSTIN; a saved one emptied warns, before saving, that tax invoices stop. */
function GstinField({ saved, error }: { saved: string | null; error?: string }) {
  const [gstinBlanked, setGstinBlanked] = useState(false);
  return (
    <Field
      id="shop-gstin"
      label="GSTIN"
      hint="15 characters; needed to issue tax invoices. Leave empty if the shop is not registered for GST."
      error={error}
      alert
    >
      {detailInput("gstin", saved, {
        className: "font-mono uppercase",
        autoCapitalize: "characters",
        onChange: (event) => setGstinBlanked(Boolean(saved) && event.target.value.trim() === ""),
      })}
      {gstinBlanked && saved && (
        <p
          role="alert"
          className="mt-2 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <strong>Tax invoices stop once you save without a GSTIN.</strong> Orders from then on get no
          invoice, and their mails go without one; invoices already issued stay as they are. Save only if the
          shop is no longer registered for GST.
        </p>
      )}
    </Field>
  );
}

function DetailsIntro({ saved }: { saved: boolean }) {
  return (
    <>
      {!saved && (
        <p className="text-sm text-stone-600 sm:col-span-2 dark:text-stone-400">
          The name, phone and e-mail below come from the server's settings until you save this form. The
          address, GSTIN, FSSAI licence and grievance officer are yours to enter.
        </p>
      )}
      <p className="text-sm text-stone-600 sm:col-span-2 dark:text-stone-400" id="shop-invoice-needs">
        A tax invoice needs the legal name, the registered address with its state, and the GSTIN. The FSSAI
        licence is printed on invoices of food products; the grievance officer is shown on the contact page
        and in the footer, as the e-commerce rules ask, and no invoice needs it.
      </p>
    </>
  );
}

/** The FSSAI licence and the grievance officer. */
function LicenceFields({ details, errors }: { details: ShopDetails; errors: FieldErrors }) {
  return (
    <>
      <Field
        id="shop-fssaiLicence"
        label="FSSAI licence number"
        hint="14 digits, for the food products."
        error={errors.fssaiLicence}
        alert
      >
        {detailInput("fssaiLicence", details.fssaiLicence, {
          inputMode: "numeric",
          maxLength: 14,
          className: "font-mono",
        })}
      </Field>
      <Field
        id="shop-grievanceOfficerName"
        label="Grievance officer's name"
        hint="Asked for by the Consumer Protection (E-Commerce) Rules, on the contact page; not on invoices."
        error={errors.grievanceOfficerName}
        alert
      >
        {detailInput("grievanceOfficerName", details.grievanceOfficer.name)}
      </Field>
      <Field
        id="shop-grievanceOfficerEmail"
        label="Grievance officer's e-mail"
        error={errors.grievanceOfficerEmail}
        alert
      >
        {detailInput("grievanceOfficerEmail", details.grievanceOfficer.email, { type: "email" })}
      </Field>
    </>
  );
}

function DetailsForm({ details }: { details: ShopDetails }) {
  const { errors, message, saving, save, section } = useSave("/admin/shop/details", "Seller details");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    void save(
      {
        legalName: text("legalName"),
        addressLine1: text("addressLine1"),
        addressLine2: text("addressLine2"),
        city: text("city"),
        pin: text("pin"),
        state: text("state"),
        phone: text("phone"),
        email: text("email"),
        gstin: text("gstin") || null,
        fssaiLicence: text("fssaiLicence") || null,
        grievanceOfficerName: text("grievanceOfficerName") || null,
        grievanceOfficerEmail: text("grievanceOfficerEmail"),
      },
      "Saved. The shop shows the new details now.",
    );
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Shop details"
      onChange={section.touch}
      className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}
      noValidate
    >
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">Seller details</h2>
      <DetailsIntro saved={Boolean(details.updatedAt)} />
      <div className="sm:col-span-2">
        <ResultMessage message={message} />
      </div>
      <Field
        id="shop-legalName"
        label="Legal name"
        hint="As registered, e.g. on the GST certificate. Needed on invoices."
        error={errors.legalName}
        alert
      >
        {detailInput("legalName", details.legalName, { autoComplete: "organization" })}
      </Field>
      <Field id="shop-phone" label="Phone" error={errors.phone} alert>
        {detailInput("phone", details.phone, { type: "tel", autoComplete: "tel" })}
      </Field>
      <Field id="shop-email" label="E-mail" error={errors.email} alert>
        {detailInput("email", details.email, { type: "email", autoComplete: "email" })}
      </Field>
      <AddressFields details={details} errors={errors} />
      <GstinField saved={details.gstin} error={errors.gstin} />
      <LicenceFields details={details} errors={errors} />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save details"}
        </Button>{" "}
        <NotSavedYet unsaved={section.unsaved} />
      </div>
    </form>
  );
}

/** The banner as shoppers will see it, or a line saying they see none. */
function BannerPreview({ draft }: { draft: PromoBanner }) {
  return (
    <div className="sm:col-span-2" aria-live="polite">
      <p className="text-xs font-medium text-stone-500 uppercase dark:text-stone-400">Preview</p>
      {draft.visible ? (
        <p className="mt-1 rounded-md bg-brand-800 px-3 py-2 text-center text-sm text-brand-50 dark:bg-brand-900">
          <span className="font-semibold">{draft.headline}</span>
          {draft.details && ` ${draft.details}`}
          {draft.code && (
            <>
              {" "}
              Use code{" "}
              <strong className="rounded bg-amber-300 px-1.5 py-0.5 font-mono tracking-wider text-stone-950">
                {draft.code.toUpperCase()}
              </strong>{" "}
              at checkout.
            </>
          )}
        </p>
      ) : (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Hidden: shoppers see no banner.</p>
      )}
    </div>
  );
}

function BannerTextFields({
  draft,
  setDraft,
  errors,
}: {
  draft: PromoBanner;
  setDraft: (draft: PromoBanner) => void;
  errors: FieldErrors;
}) {
  const text = (
    name: "headline" | "details" | "shortLabel" | "code",
    extra: InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <Input
      name={name}
      value={draft[name] ?? ""}
      onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      {...extra}
    />
  );

  return (
    <>
      <Field
        id="shop-headline"
        label="Headline"
        hint="In bold, e.g. Flat 20% off all products."
        error={errors.headline}
        alert
      >
        {text("headline")}
      </Field>
      <Field
        id="shop-details"
        label="More text (optional)"
        hint="After the headline, e.g. for a limited time."
        error={errors.details}
        alert
      >
        {text("details")}
      </Field>
      <Field
        id="shop-code"
        label="Discount code (optional)"
        hint="An existing code that is on; the banner adds “Use code … at checkout.”"
        error={errors.code}
        alert
      >
        {text("code", { className: "font-mono uppercase", autoCapitalize: "characters" })}
      </Field>
      <Field
        id="shop-shortLabel"
        label="Minimised label"
        hint="On the small button, before “- Click to expand”."
        error={errors.shortLabel}
        alert
      >
        {text("shortLabel")}
      </Field>
    </>
  );
}

function BannerForm({ banner }: { banner: PromoBanner }) {
  const { errors, message, saving, save, section } = useSave("/admin/shop/banner", "Promo banner");
  const [draft, setDraft] = useState(banner);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(
      {
        visible: draft.visible,
        headline: draft.headline.trim(),
        details: draft.details.trim(),
        code: draft.code?.trim() || null,
        shortLabel: draft.shortLabel.trim(),
      },
      draft.visible ? "Saved. The shop shows the new banner now." : "Saved. The banner is hidden now.",
    );
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Promo banner"
      onChange={section.touch}
      className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}
      noValidate
    >
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">Promo banner</h2>
      <div className="sm:col-span-2">
        <ResultMessage message={message} />
      </div>
      <BannerPreview draft={draft} />
      <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
        <input
          type="checkbox"
          name="visible"
          checked={draft.visible}
          onChange={(event) => setDraft({ ...draft, visible: event.target.checked })}
        />{" "}
        Show the banner
      </label>
      <BannerTextFields draft={draft} setDraft={setDraft} errors={errors} />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save banner"}
        </Button>{" "}
        <NotSavedYet unsaved={section.unsaved} />
      </div>
    </form>
  );
}
