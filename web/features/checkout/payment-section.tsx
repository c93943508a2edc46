import { PAYMENT_METHOD_LABELS, type PaymentMethod } from "../../../common/orders.ts";
import { cardClass } from "../../components/card.tsx";
import { ChoiceCard } from "../../components/choice-card.tsx";
import { RemindMeChoice } from "./remind-me-choice.tsx";
import type { Checkout, CheckoutData } from "./use-checkout.ts";
import { WhatsAppReminderChoice } from "./whatsapp-reminder-choice.tsx";
import { WhatsAppUpdatesChoice } from "./whatsapp-updates-choice.tsx";

/** How the shopper pays: Razorpay, cash on delivery (with why not, when it cannot be), or neither yet. */
export function PaymentSection({
  payment,
  checkout,
}: {
  payment: CheckoutData["payment"];
  checkout: Checkout;
}) {
  const { method, setMethod, codReason } = checkout;
  return (
    <section aria-labelledby="payment-heading" className={cardClass}>
      <h2 id="payment-heading" className="font-serif text-xl font-semibold">
        2. Payment
      </h2>
      <fieldset className="mt-3 space-y-2">
        <legend className="sr-only">How would you like to pay?</legend>
        {payment.razorpay.enabled && (
          <PaymentChoice
            value="razorpay"
            checked={method === "razorpay"}
            onChange={setMethod}
            description="Pay securely with Razorpay: UPI apps, debit and credit cards or netbanking."
            offer={payment.razorpay.offer}
          />
        )}
        {payment.cod.enabled && (
          <PaymentChoice
            value="cod"
            checked={method === "cod"}
            onChange={setMethod}
            disabled={codReason !== null}
            description={codReason ?? "Pay the courier in cash when your parcel arrives."}
          />
        )}
        {!payment.razorpay.enabled && !payment.cod.enabled && (
          <p role="alert">Payments are not open at the moment. Please try again later or contact us.</p>
        )}
      </fieldset>
      <WhatsAppUpdatesChoice checked={checkout.whatsappUpdates} onChange={checkout.setWhatsappUpdates} />
      <RemindMeChoice
        checked={checkout.remindMe}
        onChange={checkout.setRemindMe}
        status={checkout.remindMeStatus}
      />
      <WhatsAppReminderChoice
        checked={checkout.remindOnWhatsApp}
        onChange={checkout.setRemindOnWhatsApp}
        status={checkout.remindOnWhatsAppStatus}
      />
    </section>
  );
}

function PaymentChoice({
  value,
  checked,
  onChange,
  disabled = false,
  description,
  offer = null,
}: {
  value: PaymentMethod;
  checked: boolean;
  onChange: (method: PaymentMethod) => void;
  disabled?: boolean;
  description: string;
  /** What choosing this saves, shown under its description. */
  offer?: string | null;
}) {
  return (
    <ChoiceCard
      name="payment"
      value={value}
      checked={checked}
      disabled={disabled}
      onChange={() => onChange(value)}
      className="text-sm"
    >
      <span className="block font-medium">{PAYMENT_METHOD_LABELS[value]}</span>
      {description}
      {offer && <span className="mt-1 block font-medium text-brand-700 dark:text-brand-100">{offer}</span>}
    </ChoiceCard>
  );
}
