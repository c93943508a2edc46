import { useEffect, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { formatRupees } from "../../../common/money.ts";
import type { CheckoutSummary, PaymentMethod, PlacedOrder } from "../../../common/orders.ts";
import type { AddressInput } from "../../../common/schemas/address.ts";
import { emailSchema } from "../../../common/schemas/orders.ts";
import { api, isApiError } from "../../lib/api.ts";
import { newRandomId } from "../../lib/random-id.ts";
import { clearItems, removeDiscountCode } from "../cart/cart-store.ts";
import { useDeliveryAnswer } from "../delivery/delivery-check.tsx";
import { payOnline } from "../orders/pay-online.ts";

export type GuestCart = {
  items: { id: string; kind: "product" | "combo"; quantity: number }[];
  discountCode: string | null;
};
export type CheckoutData = CheckoutSummary & {
  guest: GuestCart | null;
  /** A signed-in shopper's standing yes to cart reminders; a guest's starts unticked. */
  remindMe?: boolean;
  /** A signed-in shopper's standing yes to reminders on WhatsApp (docs/decisions/096). */
  remindOnWhatsApp?: boolean;
};

type Navigate = (to: string, options: { replace: true }) => void;

const TRY_AGAIN = "Something went wrong. Please try again.";

/** Razorpay when it is on, else cash on delivery when the order may be paid so, else nothing yet. */
function defaultMethod({ payment }: CheckoutData): PaymentMethod | null {
  if (payment.razorpay.enabled) return "razorpay";
  return payment.cod.available ? "cod" : null;
}

type WhatsAppOptIn = { whatsappUpdates: boolean };
// Sent only when ticked: the order's API takes the field where the shop has WhatsApp (docs/decisions/065).
const whatsAppField = ({ whatsappUpdates }: WhatsAppOptIn) =>
  whatsappUpdates ? { whatsappUpdates: true } : {};

async function placeGuestOrder(
  guest: GuestCart,
  order: {
    email: string;
    address: AddressInput;
    method: PaymentMethod;
    idempotencyKey: string;
  } & WhatsAppOptIn,
  navigate: Navigate,
) {
  const placed = await api<{ order: { number: string; status: string }; token: string }>("/guest-orders", {
    method: "POST",
    headers: { "Idempotency-Key": order.idempotencyKey },
    body: {
      email: order.email,
      address: order.address,
      ...guest,
      paymentMethod: order.method,
      ...whatsAppField(order),
    },
  });
  // The order is the guest's now: the cart kept in this browser (and its code) is done with.
  await clearItems();
  await removeDiscountCode();
  const page = `/guest-order/${placed.order.number}?token=${placed.token}`;
  if (placed.order.status !== "awaiting_payment") {
    navigate(`${page}&placed=1`, { replace: true });
    return;
  }
  // Paid through the order's signed link; dismissed or failed, the order's page offers Pay now.
  const outcome = await payOnline(placed.order.number, placed.token).catch(() => null);
  navigate(outcome?.result === "paid" ? `${page}&placed=1` : page, { replace: true });
}

async function placeAccountOrder(
  order: { addressId: string; method: PaymentMethod; idempotencyKey: string } & WhatsAppOptIn,
  navigate: Navigate,
) {
  const placed = await api<PlacedOrder>("/orders", {
    method: "POST",
    headers: { "Idempotency-Key": order.idempotencyKey },
    body: { addressId: order.addressId, paymentMethod: order.method, ...whatsAppField(order) },
  });
  const number = placed.order.number;
  if (placed.order.status !== "awaiting_payment") {
    navigate(`/orders/${number}?placed=1`, { replace: true });
    return;
  }
  try {
    const outcome = await payOnline(number);
    navigate(`/orders/${number}${outcome.result === "paid" ? "?placed=1" : ""}`, { replace: true });
  } catch {
    // The order exists and waits for payment; its page offers Pay now.
    navigate(`/orders/${number}`, { replace: true });
  }
}

function placeFailure(caught: unknown, guest: boolean): string {
  if (!isApiError(caught)) return TRY_AGAIN;
  if (!guest && caught.code === "idempotency_key_reused")
    return "This order may already have been placed. Please check My Orders before trying again.";
  return caught.message;
}

/** Where the order goes: a saved address (or one being added) for an account, a typed one for a guest. */
function useAddressChoice(summary: CheckoutData) {
  const [addressId, setAddressId] = useState<string | null>(summary.addresses[0]?.id ?? null);
  const [addingAddress, setAddingAddress] = useState(summary.addresses.length === 0);
  const [guestAddress, setGuestAddress] = useState<AddressInput | null>(null);
  // The PIN being typed in a new address, once complete: checked for delivery before anything is placed.
  const [typedPin, setTypedPin] = useState<string | null>(null);
  const savedPin = summary.addresses.find((address) => address.id === addressId)?.pin ?? null;
  const accountPin = addingAddress ? typedPin : savedPin;
  const checkPin = summary.guest ? (typedPin ?? guestAddress?.pin ?? null) : accountPin;
  const hasAddress = summary.guest ? guestAddress !== null : addressId !== null && !addingAddress;
  return {
    addressId,
    setAddressId,
    addingAddress,
    setAddingAddress,
    guestAddress,
    setGuestAddress,
    setTypedPin,
    checkPin,
    hasAddress,
  };
}

/** The guest's e-mail, checked as the server will; its message shows under the field. */
function useGuestEmail() {
  const [email, setEmailValue] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const setEmail = (value: string) => {
    setEmailValue(value);
    setEmailError(null);
  };
  const checkGuestEmail = () => {
    const checked = emailSchema.safeParse(email);
    if (!checked.success) setEmailError(checked.error.issues[0]?.message ?? "Enter a valid e-mail address");
    return checked;
  };
  return { email, setEmail, emailError, setEmailError, checkGuestEmail };
}

/** How long typing rests before the guest's checkout is priced again with what was typed. */
const RECHECK_AFTER_MS = 600;

/**
 * A guest's checkout priced again once an e-mail or mobile is valid, and once an address is used: the server
 * then names a code those have spent, and decides cash on delivery for the address and its mobile (first
 * order, returns), as it will at Place order. Until an answer comes, and if none does (offline, too many
 * checks), the page shows the summary it loaded; Place order still decides.
 */
function useGuestSummary(
  loaded: CheckoutData,
  typed: {
    email: string;
    mobile: string | null;
    address: AddressInput | null;
    remindMe?: boolean;
    remindOnWhatsApp?: boolean;
  },
): CheckoutData {
  const [answer, setAnswer] = useState<{ base: CheckoutData; key: string; summary: CheckoutSummary } | null>(
    null,
  );
  const email = emailSchema.safeParse(typed.email);
  const contact = {
    ...(email.success ? { email: email.data } : {}),
    ...(typed.mobile ? { mobile: typed.mobile } : {}),
    ...(typed.address ? { address: typed.address } : {}),
  };
  // The guest's tick goes with the e-mail it is for: the server records it as the guest's yes (decision 089);
  // the WhatsApp tick with the mobile it is for (decision 096).
  const key = JSON.stringify({
    ...contact,
    ...(email.success && typed.remindMe !== undefined ? { remindMe: typed.remindMe } : {}),
    ...((typed.mobile || typed.address) && typed.remindOnWhatsApp !== undefined
      ? { remindOnWhatsApp: typed.remindOnWhatsApp }
      : {}),
  });
  const { guest } = loaded;
  useEffect(() => {
    if (!guest || key === "{}") return;
    let current = true;
    const timer = setTimeout(() => {
      api<CheckoutSummary>("/checkout/guest", {
        method: "POST",
        body: { ...guest, ...JSON.parse(key) },
      }).then(
        (summary) => current && setAnswer({ base: loaded, key, summary }),
        () => undefined,
      );
    }, RECHECK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [guest, key, loaded]);
  // An answer for another cart (the loader ran again) or for what is no longer typed is not shown.
  if (!answer || answer.base !== loaded || answer.key !== key) return loaded;
  return { ...answer.summary, guest };
}

/** What stands between the shopper and Place order: the cart's problems, the PIN, the way to pay. */
function useOrderReadiness(summary: CheckoutData, choice: ReturnType<typeof useAddressChoice>) {
  const { pricing, payment, guest } = summary;
  // Check delivery's answer for this order to this PIN: where, by when, whether cash is taken.
  const deliveryAnswer = useDeliveryAnswer(choice.checkPin, pricing.totalPaise).answer;
  const blocked = pricing.problems.length > 0 || pricing.discountProblem !== null;
  // The PIN rules the order will be held to (common/delivery-check.ts), for the chosen address or the one the
  // guest used; an account's new address is checked when placed.
  const delivery = guest
    ? (summary.guestDelivery ?? undefined)
    : choice.addressId
      ? summary.delivery[choice.addressId]
      : undefined;
  const codReason =
    (deliveryAnswer?.served ? deliveryAnswer.cod.reason : null) ??
    delivery?.codProblem ??
    (payment.cod.available ? null : `Available for orders up to ${formatRupees(payment.cod.maxOrderPaise)}.`);
  const notServed = (delivery !== undefined && !delivery.served) || deliveryAnswer?.served === false;
  const notServedMessage = deliveryAnswer?.served === false ? deliveryAnswer.message : delivery?.problem;
  return { deliveryAnswer, blocked, codReason, notServed, notServedMessage };
}

/**
 * "Remind me about my cart": a signed-in shopper's answer is recorded as soon as it is ticked (a cart left
 * at checkout is the one it is for); a guest's goes with the checkout's next check, with the e-mail.
 */
function useRemindMe(loaded: CheckoutData) {
  const [remindMe, setChecked] = useState(loaded.remindMe ?? false);
  const [touched, setTouched] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const setRemindMe = (consented: boolean) => {
    setChecked(consented);
    setTouched(true);
    if (loaded.guest) {
      setStatus(consented ? "We will remind you at the e-mail above." : null);
      return;
    }
    setStatus("Saving…");
    api("/marketing-consent", { method: "PUT", body: { consented, where: "checkout" } }).then(
      () => setStatus(consented ? "Saved: we will remind you." : "Saved: no reminders or offers."),
      (caught: unknown) => {
        setChecked(!consented);
        setStatus(isApiError(caught) ? caught.message : TRY_AGAIN);
      },
    );
  };
  return { remindMe, touched, setRemindMe, status };
}

/**
 * "Remind me on WhatsApp": a consent of its own, for a mobile. A signed-in shopper's is recorded as soon as it
 * is ticked, for the chosen address's mobile; a guest's goes with the checkout's next check, with the mobile
 * typed in the address.
 */
function useRemindOnWhatsApp(loaded: CheckoutData, accountMobile: string | null) {
  const [checked, setChecked] = useState(loaded.remindOnWhatsApp ?? false);
  const [touched, setTouched] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const setRemindOnWhatsApp = (consented: boolean) => {
    setChecked(consented);
    setTouched(true);
    if (loaded.guest) {
      setStatus(consented ? "We will remind you on WhatsApp at the mobile in your address." : null);
      return;
    }
    if (!accountMobile) {
      setChecked(false);
      setStatus("Choose a delivery address first: the reminder goes to its mobile.");
      return;
    }
    setStatus("Saving…");
    api("/marketing-consent/whatsapp", {
      method: "PUT",
      body: { consented, where: "checkout", mobile: accountMobile },
    }).then(
      () =>
        setStatus(
          consented ? "Saved: we will remind you on WhatsApp." : "Saved: no reminders or offers on WhatsApp.",
        ),
      (caught: unknown) => {
        setChecked(!consented);
        setStatus(isApiError(caught) ? caught.message : TRY_AGAIN);
      },
    );
  };
  return { checked, touched, setRemindOnWhatsApp, status };
}

/** The checkout's state and its one submit, for a guest or an account. */
export function useCheckout(loaded: CheckoutData) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const choice = useAddressChoice(loaded);
  const guestEmail = useGuestEmail();
  // A guest's mobile as typed in the address form, once valid; the used address's own once there is one.
  const [typedMobile, setTypedMobile] = useState<string | null>(null);
  const reminders = useRemindMe(loaded);
  const chosenMobile =
    (!choice.addingAddress && loaded.addresses.find((address) => address.id === choice.addressId)?.phone) ||
    null;
  const whatsAppReminders = useRemindOnWhatsApp(loaded, chosenMobile);
  const summary = useGuestSummary(loaded, {
    email: guestEmail.email,
    mobile: choice.guestAddress ? null : typedMobile,
    address: choice.guestAddress,
    remindMe: reminders.touched ? reminders.remindMe : undefined,
    remindOnWhatsApp: whatsAppReminders.touched ? whatsAppReminders.checked : undefined,
  });
  const readiness = useOrderReadiness(summary, choice);
  const [chosenMethod, setMethod] = useState<PaymentMethod | null>(() => defaultMethod(summary));
  // Cash on delivery chosen, then an address it is not offered for: the choice is shown as not made (its
  // option is disabled), rather than as a disabled option still ticked with Place order greyed out.
  const method = chosenMethod === "cod" && readiness.codReason !== null ? null : chosenMethod;
  const [whatsappUpdates, setWhatsappUpdates] = useState(false);
  // One key per attempt at this checkout: a double click, a retry after a timeout or a resend is the same order.
  const [idempotencyKey] = useState(newRandomId);
  const [placing, setPlacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canPlace = !readiness.blocked && choice.hasAddress && !readiness.notServed && method !== null;
  // The summary follows the way of paying: paying online may carry the owner's prepaid incentive.
  const pricing = method === "razorpay" && summary.onlinePricing ? summary.onlinePricing : summary.pricing;

  async function placeOrder() {
    const { guest } = summary;
    if (!method || (guest ? !choice.guestAddress : !choice.addressId)) return;
    const checkedEmail = guest ? guestEmail.checkGuestEmail() : null;
    if (checkedEmail && !checkedEmail.success) {
      document.getElementById("guest-email")?.focus();
      return;
    }
    setPlacing(true);
    setError(null);
    try {
      if (guest && checkedEmail?.success && choice.guestAddress) {
        const order = {
          email: checkedEmail.data,
          address: choice.guestAddress,
          method,
          idempotencyKey,
          whatsappUpdates,
        };
        await placeGuestOrder(guest, order, navigate);
      } else if (choice.addressId) {
        await placeAccountOrder(
          { addressId: choice.addressId, method, idempotencyKey, whatsappUpdates },
          navigate,
        );
      }
    } catch (caught) {
      setPlacing(false);
      setError(placeFailure(caught, guest !== null));
      if (guest && isApiError(caught) && caught.fields?.email) guestEmail.setEmailError(caught.fields.email);
      // Stock or the code changed under us: show the cart as it is now.
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    }
  }

  return {
    summary,
    ...choice,
    ...guestEmail,
    setTypedMobile,
    ...readiness,
    method,
    setMethod,
    pricing,
    whatsappUpdates,
    setWhatsappUpdates,
    remindMe: reminders.remindMe,
    setRemindMe: reminders.setRemindMe,
    remindMeStatus: reminders.status,
    remindOnWhatsApp: whatsAppReminders.checked,
    setRemindOnWhatsApp: whatsAppReminders.setRemindOnWhatsApp,
    remindOnWhatsAppStatus: whatsAppReminders.status,
    placing,
    error,
    canPlace,
    placeOrder,
    revalidate: () => revalidator.revalidate(),
  };
}

export type Checkout = ReturnType<typeof useCheckout>;
