import { Link, type LoaderFunctionArgs, redirect, useLoaderData } from "react-router";
import type { AccountMarketingConsent } from "../../common/cart-reminders.ts";
import type { CheckoutSummary } from "../../common/orders.ts";
import { buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { RouteError } from "../components/route-error.tsx";
import { ensureCartStarted, getCartSnapshot, syncCartSession } from "../features/cart/cart-store.ts";
import { readAppliedCode, readGuestCart } from "../features/cart/guest-storage.ts";
import { GuestDetails } from "../features/checkout/guest-details.tsx";
import { OrderSummaryPanel } from "../features/checkout/order-summary-panel.tsx";
import { PaymentSection } from "../features/checkout/payment-section.tsx";
import { SavedAddresses } from "../features/checkout/saved-addresses.tsx";
import { type CheckoutData, type GuestCart, useCheckout } from "../features/checkout/use-checkout.ts";
import { DeliveryAnswerText } from "../features/delivery/delivery-check.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireSessionUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs): Promise<CheckoutData> {
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
  const [summary, consent] = await Promise.all([
    api<CheckoutSummary>("/checkout"),
    api<AccountMarketingConsent>("/marketing-consent").catch(() => null),
  ]);
  return {
    ...summary,
    guest: null,
    remindMe: consent?.consented ?? false,
    remindOnWhatsApp: consent?.whatsapp?.consented ?? false,
  };
}

export const ErrorBoundary = RouteError;

export function Component() {
  const summary = useLoaderData<typeof loader>();
  if (summary.pricing.lines.length === 0 && summary.pricing.problems.length === 0) return <EmptyCheckout />;
  return <Checkout summary={summary} />;
}

function EmptyCheckout() {
  return (
    <section className="py-16 text-center">
      <h1 className="font-serif text-2xl font-semibold">Your cart is empty</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">
        Add something you love, then come back to check out.
      </p>
      <Link to="/" className={`${buttonClass()} mt-4`}>
        Continue shopping
      </Link>
    </section>
  );
}

function Checkout({ summary: loaded }: { summary: CheckoutData }) {
  const checkout = useCheckout(loaded);
  // A guest's summary is priced again with their e-mail, mobile and address as they are typed.
  const { summary } = checkout;
  const answerLine = (
    <DeliveryAnswerText answer={checkout.deliveryAnswer} error={null} className="mt-1" inline />
  );
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Checkout</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_24rem]">
        <div className="space-y-6">
          <section aria-labelledby="address-heading" className={cardClass}>
            <h2 id="address-heading" className="font-serif text-xl font-semibold">
              1. Delivery address
            </h2>
            {summary.guest ? (
              <GuestDetails
                email={checkout.email}
                emailError={checkout.emailError}
                onEmail={checkout.setEmail}
                address={checkout.guestAddress}
                onAddress={checkout.setGuestAddress}
                // With the address form's own messages, so an empty e-mail is not the one field left silent.
                onAddressAttempt={checkout.checkGuestEmail}
                onPin={checkout.setTypedPin}
                onPhone={checkout.setTypedMobile}
                answer={answerLine}
              />
            ) : (
              <SavedAddresses summary={summary} checkout={checkout} answer={answerLine} />
            )}
          </section>
          <PaymentSection payment={summary.payment} checkout={checkout} />
        </div>
        <OrderSummaryPanel summary={summary} checkout={checkout} />
      </div>
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Checkout") };
