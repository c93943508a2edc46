import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { INDIAN_STATE_NAMES } from "../../../common/india.ts";
import { type AddressInput, addressInputSchema, type SavedAddress } from "../../../common/schemas/address.ts";
import { Button } from "../../components/button.tsx";
import { controlClass, FieldError, Options } from "../../components/field.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { cityForPin, completePin, lookUpPin } from "../../lib/pin-lookup.ts";

const EMPTY: AddressInput = {
  name: "",
  phone: "",
  line1: "",
  line2: "",
  city: "",
  district: "",
  state: "" as never,
  pin: "",
};

type Field = keyof AddressInput;

/**
 * A new delivery address: checked in the browser with the server's own schema (so the messages match),
 * then saved to the account's address book; or, for a guest (`onUse`), handed back to go with the order.
 */
export function AddressForm({
  onSaved,
  onUse,
  initial,
  onCancel,
  onPin,
  onPhone,
  pinAnswer,
  onSubmitAttempt,
  submitTo,
  submitLabel,
  formLabel = "New delivery address",
}: {
  onSaved?: (address: SavedAddress) => void;
  onUse?: (address: AddressInput) => void;
  initial?: AddressInput;
  onCancel?: () => void;
  /** The PIN as typed, once it is six digits (null while it is not), for checkout's delivery check. */
  onPin?: (pin: string | null) => void;
  /** The mobile as typed, once it is a valid one (null while it is not): a guest's checkout is checked with it. */
  onPhone?: (mobile: string | null) => void;
  /** Shown under the PIN field: checkout's answer to whether and when the order reaches it. */
  pinAnswer?: ReactNode;
  /** Every press of the submit button, valid or not: a guest's e-mail above the form is checked with it. */
  onSubmitAttempt?: () => void;
  /** Sends the checked address somewhere else than the address book (staff correcting an order); its
   * refusals are shown on the form as the address book's are. */
  submitTo?: (address: AddressInput) => Promise<void>;
  submitLabel?: string;
  formLabel?: string;
}) {
  const id = useId();
  const [values, setValues] = useState<AddressInput>(initial ?? EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const [place, setPlace] = useState<string | null>(null);
  // The city last filled in from a PIN: a city the shopper typed themselves is never replaced.
  const filledCity = useRef("");
  const lookingUp = useRef("");

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function changePhone(event: { target: { value: string } }) {
    set("phone")(event);
    const mobile = addressInputSchema.shape.phone.safeParse(event.target.value);
    onPhone?.(mobile.success ? mobile.data : null);
  }

  /** Typing a 6-digit PIN fills city, district and state from India Post's directory (on the server). */
  async function changePin(event: { target: { value: string } }) {
    set("pin")(event);
    setPlace(null);
    const pin = completePin(event.target.value);
    onPin?.(pin);
    lookingUp.current = pin ?? "";
    if (!pin) return;
    try {
      const found = await lookUpPin(pin);
      if (lookingUp.current !== pin) return;
      setValues((current) => {
        // The address being changed (staff's "Change address", an edited saved address) came with its old
        // PIN's city: a new PIN replaces it; the same PIN typed again keeps it.
        const replaceable =
          initial && pin !== completePin(initial.pin)
            ? [filledCity.current, initial.city]
            : [filledCity.current];
        const city = cityForPin(current.city, found.city, replaceable);
        if (city === found.city) filledCity.current = city;
        return { ...current, city, district: found.district, state: found.state };
      });
      setErrors((current) => ({ ...current, city: undefined, district: undefined, state: undefined }));
      setPlace(`${found.district}, ${found.state}`);
    } catch (error) {
      if (lookingUp.current !== pin) return;
      setErrors((current) => ({
        ...current,
        pin: isApiError(error) && error.fields?.pin ? error.fields.pin : undefined,
      }));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    onSubmitAttempt?.();
    const checked = addressInputSchema.safeParse(values);
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as Field | undefined;
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      const first = Object.keys(found)[0];
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    if (onUse) {
      onUse(values);
      return;
    }
    setSaving(true);
    try {
      if (submitTo) {
        await submitTo(values);
      } else {
        const { address } = await api<{ address: SavedAddress }>("/addresses", {
          method: "POST",
          body: values,
        });
        onSaved?.(address);
      }
    } catch (error) {
      if (isApiError(error) && error.fields) setErrors(error.fields as Partial<Record<Field, string>>);
      setFormError(isApiError(error) ? error.message : "Something went wrong. Please try again.");
    } finally {
      setSaving(false);
    }
  }

  const field = (
    name: Field,
    label: string,
    props: Record<string, unknown> = {},
    hint?: string,
    extra?: ReactNode,
  ) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        value={values[name] ?? ""}
        onChange={set(name)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={
          [hint ? `${id}-${name}-hint` : "", errors[name] ? `${id}-${name}-error` : ""].join(" ").trim() ||
          undefined
        }
        className={controlClass}
        {...props}
      />
      {hint && (
        <p
          id={`${id}-${name}-hint`}
          aria-live="polite"
          className="mt-1 text-xs text-stone-600 dark:text-stone-400"
        >
          {hint}
        </p>
      )}
      <FieldError id={`${id}-${name}-error`} error={errors[name]} />
      {extra}
    </div>
  );

  return (
    <form onSubmit={submit} noValidate aria-label={formLabel} className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Full name", { autoComplete: "name", required: true })}
        {field(
          "phone",
          "Mobile number",
          { autoComplete: "tel-national", inputMode: "tel", required: true, onChange: changePhone },
          "10 digits; the courier may call before delivering",
        )}
      </div>
      {field("line1", "House, flat, building", { autoComplete: "address-line1", required: true })}
      {field("line2", "Street, area, landmark (optional)", { autoComplete: "address-line2" })}
      <div className="grid gap-3 sm:grid-cols-2">
        {field(
          "pin",
          "PIN code",
          {
            autoComplete: "postal-code",
            inputMode: "numeric",
            maxLength: 6,
            required: true,
            onChange: changePin,
          },
          place ?? "City, district and state fill in from the PIN code",
          pinAnswer,
        )}
        {field("city", "City or town", { autoComplete: "address-level2", required: true })}
        {field("district", "District", {})}
        <div>
          <label htmlFor={`${id}-state`} className="block text-sm font-medium">
            State or union territory
          </label>
          <select
            id={`${id}-state`}
            name="state"
            value={values.state}
            onChange={set("state")}
            autoComplete="address-level1"
            required
            aria-invalid={errors.state ? true : undefined}
            aria-describedby={errors.state ? `${id}-state-error` : undefined}
            className={controlClass}
          >
            <option value="">Choose…</option>
            <Options values={INDIAN_STATE_NAMES} />
          </select>
          <FieldError id={`${id}-state-error`} error={errors.state} />
        </div>
      </div>
      {formError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : (submitLabel ?? (onUse ? "Use this address" : "Save address"))}
        </Button>
        {onCancel && (
          <Button type="button" onClick={onCancel} variant="secondary">
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
