import type { ReactNode } from "react";
import { formatMobile } from "../../../common/india.ts";
import { Button } from "../../components/button.tsx";
import { ChoiceCard } from "../../components/choice-card.tsx";
import { AddressForm } from "../orders/address-form.tsx";
import type { Checkout, CheckoutData } from "./use-checkout.ts";

/** An account's saved addresses to choose from, and the form that adds one. */
export function SavedAddresses({
  summary,
  checkout,
  answer,
}: {
  summary: CheckoutData;
  checkout: Checkout;
  /** Whether and when the order reaches the chosen address's PIN. */
  answer: ReactNode;
}) {
  const { addressId, addingAddress, setAddressId, setAddingAddress } = checkout;
  return (
    <>
      {summary.addresses.length > 0 && (
        <fieldset className="mt-3">
          <legend className="sr-only">Choose a saved address</legend>
          <div className="space-y-2">
            {summary.addresses.map((address) => {
              const problem = summary.delivery[address.id]?.problem;
              return (
                <ChoiceCard
                  key={address.id}
                  name="address"
                  value={address.id}
                  checked={addressId === address.id}
                  onChange={() => setAddressId(address.id)}
                  className="text-sm"
                >
                  <span className="block font-medium">{address.name}</span>
                  {[address.line1, address.line2].filter(Boolean).join(", ")}
                  <br />
                  {address.city}, {address.state} {address.pin}
                  <br />
                  Mobile {formatMobile(address.phone)}
                  {addressId === address.id && !addingAddress && !problem && answer}
                  {problem && (
                    <span className="mt-1 block font-medium text-red-700 dark:text-red-400">{problem}</span>
                  )}
                </ChoiceCard>
              );
            })}
          </div>
        </fieldset>
      )}
      <div className="mt-3">
        {addingAddress ? (
          <AddressForm
            onSaved={(address) => {
              setAddressId(address.id);
              setAddingAddress(false);
              checkout.revalidate();
            }}
            onCancel={summary.addresses.length > 0 ? () => setAddingAddress(false) : undefined}
            onPin={checkout.setTypedPin}
            pinAnswer={answer}
          />
        ) : (
          <Button type="button" variant="secondary" onClick={() => setAddingAddress(true)}>
            Add a new address
          </Button>
        )}
      </div>
    </>
  );
}
