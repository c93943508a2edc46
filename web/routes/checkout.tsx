import { type ReactNode, useState } from "react";
import {
  Link,
  type LoaderFunctionArgs,
  redirect,
  useLoaderData,
  useNavigate,
  useRevalidator,
} from "react-router";
import { formatEstimate } from "../../common/delivery-estimate.ts";
import { formatMobile } from "../../common/india.ts";
import { formatRupees } from "../../common/money.ts";
import {
  type CheckoutSummary,
  PAYMENT_METHOD_LABELS,
  type PaymentMethod,
  type PlacedOrder,
} from "../../common/orders.ts";
import type { AddressInput } from "../../common/schemas/address.ts";
import { emailSchema } from "../../common/schemas/orders.ts";
import {
  clearItems,
  ensureCartStarted,
  getCartSnapshot,
  removeDiscountCode,
  syncCartSession,
} from "../features/cart/cart-store.ts";
import { readAppliedCode, readGuestCart } from "../features/cart/guest-storage.ts";
import { DeliveryAnswerText, useDeliveryAnswer } from "../features/delivery/delivery-check.tsx";
import { AddressForm } from "../features/orders/address-form.tsx";
import { cardClass, inputClass, primaryButton, secondaryButton } from "../features/orders/buttons.ts";
import { OrderLines, OrderTotals } from "../features/orders/order-lines.tsx";
import { payOnline } from "../features/orders/pay-online.ts";
import { RouteError } from "../features/orders/route-error.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { newRandomId } from "../lib/random-id.ts";
import { requireSessionUser } from "../lib/session.ts";

type GuestCart = {
  items: { id: string; kind: "product" | "combo"; quantity: number }[];
  discountCode: string | null;
};
type LoaderData = CheckoutSummary & { guest: GuestCart | null };

export async function loader({ request }: LoaderFunctionArgs): Promise<LoaderData> {
  // Checking out as a guest (offered on the sign-in page): the cart kept in this browser, priced by the server
  // exactly as the order will be.
  if (new URL(request.url).searchParams.get("as") === "guest") {
    await ensureCartStarted();
    if (getCartSnapshot().mode === "guest") {
      const guest: GuestCart = {
        items: readGuestCart().map(({ id, kind, quantity }) => ({ id, kind, quantity })),
        discountCode: readAppliedCode(),
      };
      const summary = await api<CheckoutSummary>("/checkout/guest", { method: "POST", body: guest });
      return { ...summary, guest };
    }
    throw redirect("/checkout");
  }
  const user = await requireSessionUser(request);
  // A shopper who has just signed in (a confirmation link, an e-mail link) still has the guest cart in this
  // browser: it is merged into the saved cart before the saved cart is priced, or checkout would show it empty.
  await ensureCartStarted();
  if (getCartSnapshot().userId !== user.id) await syncCartSession();
  return { ...(await api<CheckoutSummary>("/checkout")), guest: null };
}

export const ErrorBoundary = RouteError;

export function Component() {
  const summary = useLoaderData<typeof loader>();
  const { pricing, guest } = summary;
  const { payment } = summary;
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [addressId, setAddressId] = useState<string | null>(summary.addresses[0]?.id ?? null);
  const [addingAddress, setAddingAddress] = useState(summary.addresses.length === 0);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [guestAddress, setGuestAddress] = useState<AddressInput | null>(null);
  // The PIN being typed in a new address, once complete: checked for delivery before anything is placed.
  const [typedPin, setTypedPin] = useState<string | null>(null);
  const defaultMethod: PaymentMethod | null = payment.razorpay.enabled
    ? "razorpay"
    : payment.cod.available
      ? "cod"
      : null;
  const [method, setMethod] = useState<PaymentMethod | null>(defaultMethod);
  // One key per attempt at this checkout: a double click, a retry after a timeout or a resend is the same order.
  const [idempotencyKey] = useState(newRandomId);
  const [placing, setPlacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const savedPin = summary.addresses.find((address) => address.id === addressId)?.pin ?? null;
  const checkPin = guest ? (typedPin ?? guestAddress?.pin ?? null) : addingAddress ? typedPin : savedPin;
  // Check delivery's answer for this order to this PIN: where, by when, whether cash is taken.
  const deliveryAnswer = useDeliveryAnswer(checkPin, pricing.totalPaise).answer;

  if (pricing.lines.length === 0 && pricing.problems.length === 0) {
    return (
      <section className="py-16 text-center">
        <h1 className="font-serif text-2xl font-semibold">Your cart is empty</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          Add something you love, then come back to check out.
        </p>
        <Link to="/" className={`${primaryButton} mt-4`}>
          Continue shopping
        </Link>
      </section>
    );
  }

  const blocked = pricing.problems.length > 0 || pricing.discountProblem !== null;
  // The PIN rules the order will be held to (common/delivery-check.ts): a new address is checked when placed.
  const delivery = !guest && addressId ? summary.delivery[addressId] : undefined;
  const codReason =
    (deliveryAnswer?.served ? deliveryAnswer.cod.reason : null) ??
    delivery?.codProblem ??
    (payment.cod.available ? null : `Available for orders up to ${formatRupees(payment.cod.maxOrderPaise)}.`);
  const codChosenButUnavailable = method === "cod" && codReason !== null;
  const notServed = (delivery !== undefined && !delivery.served) || deliveryAnswer?.served === false;
  const notServedMessage = deliveryAnswer?.served === false ? deliveryAnswer.message : delivery?.problem;
  const answerLine = <DeliveryAnswerText answer={deliveryAnswer} error={null} className="mt-1" inline />;
  const hasAddress = guest ? guestAddress !== null : addressId !== null && !addingAddress;
  const canPlace = !blocked && hasAddress && !notServed && method !== null && !codChosenButUnavailable;

  /** The guest's e-mail, checked as the server will; its message shows under the field. */
  function checkGuestEmail() {
    const checked = emailSchema.safeParse(email);
    if (!checked.success) setEmailError(checked.error.issues[0]?.message ?? "Enter a valid e-mail address");
    return checked;
  }

  async function placeGuestOrder() {
    if (!guest || !guestAddress || !method) return;
    const checkedEmail = checkGuestEmail();
    if (!checkedEmail.success) {
      document.getElementById("guest-email")?.focus();
      return;
    }
    setPlacing(true);
    setError(null);
    try {
      const placed = await api<{ order: { number: string; status: string }; token: string }>(
        "/guest-orders",
        {
          method: "POST",
          headers: { "Idempotency-Key": idempotencyKey },
          body: { email: checkedEmail.data, address: guestAddress, ...guest, paymentMethod: method },
        },
      );
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
    } catch (caught) {
      setPlacing(false);
      setError(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
      if (isApiError(caught) && caught.fields?.email) setEmailError(caught.fields.email);
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    }
  }

  async function placeOrder() {
    if (guest) return placeGuestOrder();
    if (!addressId || !method) return;
    setPlacing(true);
    setError(null);
    try {
      const { order } = await api<PlacedOrder>("/orders", {
        method: "POST",
        headers: { "Idempotency-Key": idempotencyKey },
        body: { addressId, paymentMethod: method },
      });
      if (order.status !== "awaiting_payment") {
        navigate(`/orders/${order.number}?placed=1`, { replace: true });
        return;
      }
      try {
        const outcome = await payOnline(order.number);
        navigate(`/orders/${order.number}${outcome.result === "paid" ? "?placed=1" : ""}`, { replace: true });
      } catch {
        // The order exists and waits for payment; its page offers Pay now.
        navigate(`/orders/${order.number}`, { replace: true });
      }
    } catch (caught) {
      setPlacing(false);
      setError(
        isApiError(caught) && caught.code === "idempotency_key_reused"
          ? "This order may already have been placed. Please check My Orders before trying again."
          : isApiError(caught)
            ? caught.message
            : "Something went wrong. Please try again.",
      );
      // Stock or the code changed under us: show the cart as it is now.
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    }
  }

  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Checkout</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_24rem]">
        <div className="space-y-6">
          <section aria-labelledby="address-heading" className={cardClass}>
            <h2 id="address-heading" className="font-serif text-xl font-semibold">
              1. Delivery address
            </h2>
            {guest ? (
              <GuestDetails
                email={email}
                emailError={emailError}
                onEmail={(value) => {
                  setEmail(value);
                  setEmailError(null);
                }}
                address={guestAddress}
                onAddress={setGuestAddress}
                // With the address form's own messages, so an empty e-mail is not the one field left silent.
                onAddressAttempt={checkGuestEmail}
                onPin={setTypedPin}
                answer={answerLine}
              />
            ) : (
              <>
                {summary.addresses.length > 0 && (
                  <fieldset className="mt-3">
                    <legend className="sr-only">Choose a saved address</legend>
                    <div className="space-y-2">
                      {summary.addresses.map((address) => (
                        <label
                          key={address.id}
                          className="flex cursor-pointer gap-3 rounded-md border border-stone-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 dark:border-stone-700 dark:has-[:checked]:bg-brand-900/40"
                        >
                          <input
                            type="radio"
                            name="address"
                            value={address.id}
                            checked={addressId === address.id}
                            onChange={() => setAddressId(address.id)}
                            className="mt-1 accent-brand-700"
                          />
                          <span className="text-sm">
                            <span className="block font-medium">{address.name}</span>
                            {[address.line1, address.line2].filter(Boolean).join(", ")}
                            <br />
                            {address.city}, {address.state} {address.pin}
                            <br />
                            Mobile {formatMobile(address.phone)}
                            {addressId === address.id &&
                              !addingAddress &&
                              !summary.delivery[address.id]?.problem &&
                              answerLine}
                            {summary.delivery[address.id]?.problem && (
                              <span className="mt-1 block font-medium text-red-700 dark:text-red-400">
                                {summary.delivery[address.id]?.problem}
                              </span>
                            )}
                          </span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                )}
                <div className="mt-3">
                  {addingAddress ? (
                    <AddressForm
                      onSaved={(address) => {
                        setAddressId(address.id);
                        setAddingAddress(false);
                        revalidator.revalidate();
                      }}
                      onCancel={summary.addresses.length > 0 ? () => setAddingAddress(false) : undefined}
                      onPin={setTypedPin}
                      pinAnswer={answerLine}
                    />
                  ) : (
                    <button type="button" className={secondaryButton} onClick={() => setAddingAddress(true)}>
                      Add a new address
                    </button>
                  )}
                </div>
              </>
            )}
          </section>

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
          </section>
        </div>

        <aside aria-labelledby="summary-heading" className={`${cardClass} h-fit lg:sticky lg:top-4`}>
          <h2 id="summary-heading" className="font-serif text-xl font-semibold">
            Order summary
          </h2>
          <OrderLines
            lines={pricing.lines.map((line) => ({
              ...line,
              image: summary.images[line.itemId] ?? "",
              note:
                line.previousUnitPricePaise !== null
                  ? `Price changed from ${formatRupees(line.previousUnitPricePaise)} since you added it`
                  : null,
            }))}
          />
          {(pricing.problems.length > 0 || pricing.discountProblem) && (
            <div
              role="alert"
              className="my-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100"
            >
              <ul className="list-disc space-y-1 pl-4">
                {pricing.problems.map((problem) => (
                  <li key={problem.itemId}>{problem.message}</li>
                ))}
                {pricing.discountProblem && (
                  <li>
                    {pricing.discountProblem.message}: {pricing.discountProblem.code}. Remove the code in your
                    cart to continue.
                  </li>
                )}
              </ul>
              <Link to="/cart" className="mt-2 inline-block font-medium underline">
                Go to your cart
              </Link>
            </div>
          )}
          <OrderTotals
            subtotalPaise={pricing.subtotalPaise}
            discount={pricing.discount}
            shippingPaise={pricing.shippingPaise}
            totalPaise={pricing.totalPaise}
          />
          {pricing.freeShippingShortfallPaise > 0 && (
            <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
              Add {formatRupees(pricing.freeShippingShortfallPaise)} more for free shipping (free from{" "}
              {formatRupees(summary.freeShippingMinPaise)}{" "}
              {summary.freeShippingBasis === "before_discount" ? "before discount" : "after discount"}).
            </p>
          )}
          {/* No date is promised to a PIN code the shop does not deliver to. */}
          {!notServed && (
            <p className="mt-3 text-sm">
              <span className="font-medium">Estimated delivery:</span> {formatEstimate(summary.estimate)}
              <span className="block text-xs text-stone-600 dark:text-stone-400">
                We hand orders to the courier within 3-5 days.
              </span>
            </p>
          )}
          {error && (
            <p
              role="alert"
              className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-900/30 dark:text-red-200"
            >
              {error}
            </p>
          )}
          <button
            type="button"
            onClick={placeOrder}
            disabled={!canPlace || placing}
            className={`${primaryButton} mt-4 w-full py-3 text-lg`}
          >
            {placing
              ? "Placing your order…"
              : method === "razorpay"
                ? `Pay ${formatRupees(pricing.totalPaise)}`
                : `Place order · ${formatRupees(pricing.totalPaise)}`}
          </button>
          {notServed && notServedMessage && (
            <p className="mt-2 text-sm text-red-700 dark:text-red-400">
              {notServedMessage} Please {guest ? "enter" : "choose"} another address.
            </p>
          )}
          {!hasAddress && !blocked && (
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              {guest
                ? "Enter your e-mail and delivery address to continue."
                : "Save a delivery address to continue."}
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}

/** A guest's e-mail (for the order's mails and its link) and the delivery address, with its mobile. */
function GuestDetails({
  email,
  emailError,
  onEmail,
  address,
  onAddress,
  onAddressAttempt,
  onPin,
  answer,
}: {
  email: string;
  emailError: string | null;
  onEmail: (email: string) => void;
  address: AddressInput | null;
  onAddress: (address: AddressInput | null) => void;
  onAddressAttempt: () => void;
  onPin: (pin: string | null) => void;
  /** Whether and when the order reaches the address's PIN. */
  answer: ReactNode;
}) {
  const [editing, setEditing] = useState(address === null);
  return (
    <div className="mt-3 space-y-4">
      <div>
        <label htmlFor="guest-email" className="block text-sm font-medium">
          E-mail
        </label>
        <input
          id="guest-email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => onEmail(event.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "guest-email-hint guest-email-error" : "guest-email-hint"}
          className={inputClass}
        />
        <p id="guest-email-hint" className="mt-1 text-xs text-stone-600 dark:text-stone-400">
          We send your order confirmation and its link here. No account needed.
        </p>
        {emailError && (
          <p id="guest-email-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {emailError}
          </p>
        )}
      </div>
      {editing || !address ? (
        <AddressForm
          initial={address ?? undefined}
          onUse={(chosen) => {
            onAddress(chosen);
            setEditing(false);
          }}
          onPin={onPin}
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
          <button type="button" className={secondaryButton} onClick={() => setEditing(true)}>
            Change
          </button>
        </div>
      )}
    </div>
  );
}

function PaymentChoice({
  value,
  checked,
  onChange,
  disabled = false,
  description,
}: {
  value: PaymentMethod;
  checked: boolean;
  onChange: (method: PaymentMethod) => void;
  disabled?: boolean;
  description: string;
}) {
  return (
    <label
      className={`flex gap-3 rounded-md border border-stone-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 dark:border-stone-700 dark:has-[:checked]:bg-brand-900/40 ${
        disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer"
      }`}
    >
      <input
        type="radio"
        name="payment"
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChange(value)}
        className="mt-1 accent-brand-700"
      />
      <span className="text-sm">
        <span className="block font-medium">{PAYMENT_METHOD_LABELS[value]}</span>
        {description}
      </span>
    </label>
  );
}

export const handle: RouteHandle = { meta: privatePage("Checkout") };
