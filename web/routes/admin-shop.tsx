import { type FormEvent, type ReactNode, useState } from "react";
import { type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { INDIAN_STATE_NAMES } from "../../common/india.ts";
import type { PromoBanner, ShopDetails } from "../../common/schemas/shop.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { controlClass, FieldError } from "../components/field.tsx";
import { ResultMessage } from "../components/result-message.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
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
      <BannerForm banner={banner} />
      <DetailsForm details={details} />
    </div>
  );
}

/** A labelled control with its hint, or the server's message for it in place of the hint. */
function Field({
  name,
  label,
  hint,
  errors,
  className = "",
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  errors: FieldErrors;
  className?: string;
  children: (described: Record<string, unknown>) => ReactNode;
}) {
  const id = `shop-${name}`;
  const described = errors[name]
    ? { id, "aria-describedby": `${id}-error`, "aria-invalid": true }
    : hint
      ? { id, "aria-describedby": `${id}-hint` }
      : { id };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children(described)}
      {errors[name] ? (
        <FieldError id={`${id}-error`} error={errors[name]} alert />
      ) : (
        hint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-stone-500 dark:text-stone-400">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** Sends a form's fields to the API; on a 400 shows each field's message beside it. */
function useSave(path: string) {
  const revalidator = useRevalidator();
  const form = useFormSave();
  const save = (body: Record<string, unknown>, saved: string) =>
    form.save(
      async () => {
        await api(path, { method: "PUT", body });
        // The footer and contact page show the seller's details from the shop's config.
        forgetShopConfig();
        revalidator.revalidate();
      },
      () => saved,
    );
  return { ...form, save };
}

function DetailsForm({ details }: { details: ShopDetails }) {
  const { errors, message, saving, save } = useSave("/admin/shop/details");

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

  const input = (name: string, value: string | null | undefined, extra: Record<string, unknown> = {}) =>
    function Input(described: Record<string, unknown>) {
      return (
        <input name={name} defaultValue={value ?? ""} className={controlClass} {...extra} {...described} />
      );
    };

  return (
    <form
      onSubmit={submit}
      aria-label="Shop details"
      className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}
      noValidate
    >
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">Seller details</h2>
      {!details.updatedAt && (
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
      <div className="sm:col-span-2">
        <ResultMessage message={message} />
      </div>
      <Field
        name="legalName"
        label="Legal name"
        hint="As registered, e.g. on the GST certificate. Needed on invoices."
        errors={errors}
      >
        {input("legalName", details.legalName, { autoComplete: "organization" })}
      </Field>
      <Field name="phone" label="Phone" errors={errors}>
        {input("phone", details.phone, { type: "tel", autoComplete: "tel" })}
      </Field>
      <Field name="email" label="E-mail" errors={errors}>
        {input("email", details.email, { type: "email", autoComplete: "email" })}
      </Field>
      <Field
        name="addressLine1"
        label="Registered address"
        hint="Needed on invoices, and shown on the contact page."
        errors={errors}
        className="sm:col-span-2"
      >
        {input("addressLine1", details.address?.line1, { autoComplete: "address-line1" })}
      </Field>
      <Field
        name="addressLine2"
        label="Address, second line (optional)"
        errors={errors}
        className="sm:col-span-2"
      >
        {input("addressLine2", details.address?.line2, { autoComplete: "address-line2" })}
      </Field>
      <Field name="city" label="City" errors={errors}>
        {input("city", details.address?.city, { autoComplete: "address-level2" })}
      </Field>
      <Field name="pin" label="PIN code" errors={errors}>
        {input("pin", details.address?.pin, {
          inputMode: "numeric",
          maxLength: 6,
          autoComplete: "postal-code",
        })}
      </Field>
      <Field name="state" label="State" hint="GST invoices name its state code." errors={errors}>
        {(described) => (
          <select
            name="state"
            defaultValue={details.address?.state ?? ""}
            className={controlClass}
            {...described}
          >
            <option value="" disabled>
              Choose a state
            </option>
            {INDIAN_STATE_NAMES.map((state) => (
              <option key={state}>{state}</option>
            ))}
          </select>
        )}
      </Field>
      <Field
        name="gstin"
        label="GSTIN"
        hint="15 characters; needed to issue tax invoices. Leave empty if the shop is not registered for GST."
        errors={errors}
      >
        {input("gstin", details.gstin, {
          className: `${controlClass} font-mono uppercase`,
          autoCapitalize: "characters",
        })}
      </Field>
      <Field
        name="fssaiLicence"
        label="FSSAI licence number"
        hint="14 digits, for the food products."
        errors={errors}
      >
        {input("fssaiLicence", details.fssaiLicence, {
          inputMode: "numeric",
          maxLength: 14,
          className: `${controlClass} font-mono`,
        })}
      </Field>
      <Field
        name="grievanceOfficerName"
        label="Grievance officer's name"
        hint="Asked for by the Consumer Protection (E-Commerce) Rules, on the contact page; not on invoices."
        errors={errors}
      >
        {input("grievanceOfficerName", details.grievanceOfficer.name)}
      </Field>
      <Field name="grievanceOfficerEmail" label="Grievance officer's e-mail" errors={errors}>
        {input("grievanceOfficerEmail", details.grievanceOfficer.email, { type: "email" })}
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save details"}
        </Button>
      </div>
    </form>
  );
}

function BannerForm({ banner }: { banner: PromoBanner }) {
  const { errors, message, saving, save } = useSave("/admin/shop/banner");
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

  const text = (name: "headline" | "details" | "shortLabel" | "code", extra: Record<string, unknown> = {}) =>
    function Input(described: Record<string, unknown>) {
      return (
        <input
          name={name}
          value={draft[name] ?? ""}
          onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
          className={controlClass}
          {...extra}
          {...described}
        />
      );
    };

  return (
    <form
      onSubmit={submit}
      aria-label="Promo banner"
      className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}
      noValidate
    >
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">Promo banner</h2>
      <div className="sm:col-span-2">
        <ResultMessage message={message} />
      </div>
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
      <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
        <input
          type="checkbox"
          name="visible"
          checked={draft.visible}
          onChange={(event) => setDraft({ ...draft, visible: event.target.checked })}
        />{" "}
        Show the banner
      </label>
      <Field name="headline" label="Headline" hint="In bold, e.g. Flat 20% off all products." errors={errors}>
        {text("headline")}
      </Field>
      <Field
        name="details"
        label="More text (optional)"
        hint="After the headline, e.g. for a limited time."
        errors={errors}
      >
        {text("details")}
      </Field>
      <Field
        name="code"
        label="Discount code (optional)"
        hint="An existing code that is on; the banner adds “Use code … at checkout.”"
        errors={errors}
      >
        {text("code", { className: `${controlClass} font-mono uppercase`, autoCapitalize: "characters" })}
      </Field>
      <Field
        name="shortLabel"
        label="Minimised label"
        hint="On the small button, before “- Click to expand”."
        errors={errors}
      >
        {text("shortLabel")}
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save banner"}
        </Button>
      </div>
    </form>
  );
}
