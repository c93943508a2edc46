import { useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import type { OrderDetail } from "../../common/orders.ts";
import { withRedirect } from "../../common/redirect-target.ts";
import type { ShipmentView } from "../../common/shipping.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { RouteError } from "../components/route-error.tsx";
import { TaxDocumentLinks } from "../components/tax-document-links.tsx";
import { payOnlineOffer } from "../features/cod-confirm/pay-online-offer.ts";
import { WaitingCodCard } from "../features/cod-confirm/waiting-cod-card.tsx";
import { PAYMENT_REFUNDED_NOTICE, payOnline } from "../features/orders/pay-online.ts";
import { ShopperOrderPage } from "../features/orders/shopper-order-page.tsx";
import { ShopperParcelCard } from "../features/shipping/shopper-parcel-card.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

type GuestOrderView = { order: OrderDetail; email: string; inAccount: boolean; canAddToAccount: boolean };

/**
 * A guest's order, opened from the link in its e-mail (or straight after checkout): the token in the address is
 * the only key, to see the order and its parcel, pay for it online, cancel it, and answer a failed delivery.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const order = `/guest-orders/${encodeURIComponent(params.number ?? "")}`;
  const query = `?token=${encodeURIComponent(token)}`;
  const view = await api<GuestOrderView>(`${order}${query}`);
  // Asked only once the link has opened the order, so a wrong link counts one miss, not two.
  const [parcel, payOnlineInstead] = await Promise.all([
    api<{ shipment: ShipmentView | null }>(`${order}/shipment${query}`),
    payOnlineOffer(view.order),
  ]);
  return { ...view, shipment: parcel.shipment, payOnlineInstead };
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { order, email, inAccount, canAddToAccount, shipment, payOnlineInstead } =
    useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const revalidator = useRevalidator();
  const token = search.get("token") ?? "";
  const [cancelling, setCancelling] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const placedNow = search.get("placed") === "1";
  // The link mailed to the order's address carries `claim`: whoever opens it owns that mailbox.
  const claim = search.get("claim");
  const withToken = (path: string) => `${path}?token=${encodeURIComponent(token)}`;
  // Back to this page after signing in or up, where the order can then be added to the account.
  const here = withToken(`/guest-order/${order.number}`);
  const signUp = `/signup?${new URLSearchParams({ email, redirectTo: here })}`;
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<{ code: string | null; message: string } | null>(null);

  async function addToAccount() {
    setAdding(true);
    setAddError(null);
    try {
      await api(withToken(`/guest-orders/${order.number}/claim`), {
        method: "POST",
        body: claim ? { claim } : {},
      });
      setNotice("This order is now in My Orders.");
      revalidator.revalidate();
    } catch (caught) {
      setAddError(
        isApiError(caught)
          ? { code: caught.code, message: caught.message }
          : { code: null, message: "The order could not be added. Please try again." },
      );
    } finally {
      setAdding(false);
    }
  }

  async function pay() {
    setBusy(true);
    setError(null);
    try {
      const outcome = await payOnline(order.number, token);
      if (outcome.result === "paid") {
        setNotice(
          `Thank you! Your payment is received and your order is confirmed. We have e-mailed a confirmation with a link to this page to ${email}.`,
        );
      }
      if (outcome.result === "refunded") setNotice(PAYMENT_REFUNDED_NOTICE);
      revalidator.revalidate();
    } catch (caught) {
      setError(
        isApiError(caught) || caught instanceof Error ? caught.message : "The payment could not be started.",
      );
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    } finally {
      setBusy(false);
    }
  }

  async function cancel(reason: string | undefined) {
    await api(withToken(`/guest-orders/${order.number}/cancel`), {
      method: "POST",
      body: reason ? { reason } : {},
    });
    setCancelling(false);
    noted("Your order is cancelled.");
  }

  function noted(said: string) {
    setNotice(said);
    revalidator.revalidate();
  }

  return (
    <ShopperOrderPage
      order={order}
      heading={{
        said:
          notice ??
          (placedNow && order.status !== "awaiting_payment" && (
            <>
              Thank you! Your order is {order.paidAt ? "paid and confirmed" : "placed"}. We have e-mailed a
              confirmation with a link to this page to <strong>{email}</strong>.
              {order.codConfirm && " One more step: please confirm it below."}
            </>
          )),
        payNote: ", so keep this page open until you have paid",
        onPay: pay,
        paying: busy,
        error,
      }}
      codCard={<WaitingCodCard order={order} payOnline={payOnlineInstead} onAnswered={noted} />}
      shipment={shipment}
      parcelCard={(parcel, wide) => (
        <ShopperParcelCard
          attemptPath={withToken(`/guest-orders/${order.number}/delivery-attempt`)}
          shipment={parcel}
          wide={wide}
          onChanged={() => revalidator.revalidate()}
        />
      )}
      documents={
        <TaxDocumentLinks
          base={`/api/guest-orders/${order.number}`}
          search={`?${new URLSearchParams({ token: search.get("token") ?? "" })}`}
          documents={order.documents}
        />
      }
      account={
        <section aria-labelledby="account-heading" className={cardClass}>
          <h2 id="account-heading" className="font-serif text-xl font-semibold">
            {inAccount ? "In your account" : "Keep your orders together"}
          </h2>
          {inAccount ? (
            <>
              <p className="mt-2 text-sm">This order is in My Orders of the account for {email}.</p>
              <Link to="/orders" className={`${buttonClass({ variant: "secondary" })} mt-3`}>
                My Orders
              </Link>
            </>
          ) : canAddToAccount || claim ? (
            <>
              <p className="mt-2 text-sm">
                Add this order to your account for {email}: it joins My Orders, with the rest.
              </p>
              <Button type="button" className="mt-3" onClick={addToAccount} disabled={adding}>
                Add to my account
              </Button>
              {addError && (
                <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
                  {addError.message}
                </p>
              )}
              {addError?.code === "no_account" && (
                <Link to={signUp} className={`${buttonClass({ variant: "secondary" })} mt-3`}>
                  Create an account
                </Link>
              )}
            </>
          ) : (
            <>
              <p className="mt-2 text-sm">
                Have an account with {email}? The e-mail we sent about this order has a link that adds it to
                your account, or sign in with that address and come back to this page. No account yet? Create
                one with {email}, and checkout will remember your address.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Link to={withRedirect("/login", here)} className={buttonClass({ variant: "secondary" })}>
                  Sign in
                </Link>
                <Link to={signUp} className={buttonClass()}>
                  Create an account
                </Link>
              </div>
            </>
          )}
        </section>
      }
      note={
        <p className="text-sm text-stone-600 dark:text-stone-400">
          To change this order or return it,{" "}
          <Link to="/contact" className="underline">
            contact us
          </Link>{" "}
          with its number. Keep the e-mail with this page's link: anyone who has it can see and cancel the
          order, and tell the courier when and where to deliver it.
        </p>
      }
      cancelling={cancelling}
      setCancelling={setCancelling}
      cancel={cancel}
    />
  );
}

export const handle: RouteHandle = { meta: privatePage("Your order") };
