import { type ReactNode, useState } from "react";
import type { AddressInput } from "../../../common/schemas/address.ts";
import { Button } from "../../components/button.tsx";
import { Field, Input } from "../../components/field.tsx";
import { AddressForm } from "../orders/address-form.tsx";

/** A guest's e-mail (for the order's mails and its link) and the delivery address, with its mobile. */
export function GuestDetails({
  email,
  emailError,
  onEmail,
  address,
  onAddress,
  onAddressAttempt,
  onPin,
  onPhone,
  answer,
}: {
  email: string;
  emailError: string | null;
  onEmail: (email: string) => void;
  address: AddressInput | null;
  onAddress: (address: AddressInput | null) => void;
  onAddressAttempt: () => void;
  onPin: (pin: string | null) => void;
  /** The mobile typed in the address, once valid: the checkout is priced again with it. */
  onPhone: (mobile: string | null) => void;
  /** Whether and when the order reaches the address's PIN. */
  answer: ReactNode;
}) {
  const [editing, setEditing] = useState(address === null);
  return (
    <div className="mt-3 space-y-4">
      <Field
        id="guest-email"
        label="E-mail"
        hint="We send your order confirmation and its link here. No account needed."
        error={emailError}
      >
        <Input
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => onEmail(event.target.value)}
        />
      </Field>
      {editing || !address ? (
        <AddressForm
          initial={address ?? undefined}
          onUse={(chosen) => {
            onAddress(chosen);
            setEditing(false);
          }}
          onPin={onPin}
          onPhone={onPhone}
          pinAnswer={answer}
          onSubmitAttempt={onAddressAttempt}
        />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-brand-600 bg-brand-50 p-3 text-sm dark:bg-brand-900/40">
          <p>
            <span className="block font-medium">{address.name}</span>
            {[address.line1, address.line2].filter(Boolean).join(", ")}
            <br />
            {address.city}, {address.state} {address.pin}
            <br />
            Mobile {address.phone}
            {answer}
          </p>
          <Button type="button" variant="secondary" onClick={() => setEditing(true)}>
            Change
          </Button>
        </div>
      )}
    </div>
  );
}
