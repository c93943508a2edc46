import { useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import type { OrderDetail } from "../../common/orders.ts";
import type { ShipmentView } from "../../common/shipping.ts";
import { Button } from "../components/button.tsx";
import { Dialog } from "../components/dialog.tsx";
import { Field, Textarea } from "../components/field.tsx";
import { RouteError } from "../components/route-error.tsx";
import { TaxDocumentLinks } from "../components/tax-document-links.tsx";
import { payOnlineOffer } from "../features/cod-confirm/pay-online-offer.ts";
import { WaitingCodCard } from "../features/cod-confirm/waiting-cod-card.tsx";
import { PAYMENT_REFUNDED_NOTICE, payOnline } from "../features/orders/pay-online.ts";
import { ShopperOrderPage } from "../features/orders/shopper-order-page.tsx";
import { ShopperParcelCard } from "../features/shipping/shopper-parcel-card.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireSessionUser } from "../lib/session.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSessionUser(request);
  const number = encodeURIComponent(params.number ?? "");
  const [detail, parcel] = await Promise.all([
    api<{ order: OrderDetail }>(`/orders/${number}`),
    api<{ shipment: ShipmentView | null }>(`/orders/${number}/shipment`),
  ]);
  return { ...detail, shipment: parcel.shipment, payOnlineInstead: await payOnlineOffer(detail.order) };
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { order, shipment, payOnlineInstead } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const revalidator = useRevalidator();
  const [dialog, setDialog] = useState<"cancel" | "return" | null>(null);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The return dialog keeps its own answer: a refusal belongs beside the reason typed, not under the
  // heading where a payment's is said once the dialog is closed.
  const [sendingReturn, setSendingReturn] = useState(false);
  const [returnError, setReturnError] = useState<string | null>(null);

  async function requestReturn() {
    setSendingReturn(true);
    setReturnError(null);
    try {
      await api(`/orders/${order.number}/return`, { method: "POST", body: { reason: reason.trim() } });
      setDialog(null);
      setReason("");
      setNotice("Your return request is sent. We will e-mail you.");
      revalidator.revalidate();
    } catch (caught) {
      setReturnError(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
    } finally {
      setSendingReturn(false);
    }
  }

  function openReturn() {
    setReturnError(null);
    setDialog("return");
  }

  async function cancel(cancelReason: string | undefined) {
    await api(`/orders/${order.number}/cancel`, {
      method: "POST",
      body: cancelReason ? { reason: cancelReason } : {},
    });
    setDialog(null);
    noted("Your order is cancelled.");
  }

  function noted(said: string) {
    setNotice(said);
    revalidator.revalidate();
  }

  async function pay() {
    setBusy(true);
    setError(null);
    try {
      const outcome = await payOnline(order.number);
      if (outcome.result === "paid")
        setNotice("Thank you! Your payment is received and your order is confirmed.");
      if (outcome.result === "refunded") setNotice(PAYMENT_REFUNDED_NOTICE);
      revalidator.revalidate();
    } catch (caught) {
      setError(
        isApiError(caught) || caught instanceof Error ? caught.message : "The payment could not be started.",
      );
      // The order lapsed meanwhile (decision 020): show it as it is now.
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    } finally {
      setBusy(false);
    }
  }

  const placedNow = search.get("placed") === "1";
  return (
    <ShopperOrderPage
      order={order}
      above={
        <p className="text-sm">
          <Link to="/orders" className="underline">
            ← My Orders
          </Link>
        </p>
      }
      heading={{
        said:
          (placedNow || notice) &&
          (notice ??
            (order.codConfirm
              ? "Thank you! Your order is placed. One more step: please confirm it below."
              : order.status === "placed"
                ? "Thank you! Your order is placed. We have e-mailed you a confirmation."
                : "Thank you! Your payment is received and your order is confirmed.")),
        onPay: pay,
        paying: busy,
        error,
      }}
      codCard={<WaitingCodCard order={order} payOnline={payOnlineInstead} onAnswered={noted} />}
      shipment={shipment}
      parcelCard={(parcel, wide) => (
        <ShopperParcelCard
          attemptPath={`/orders/${order.number}/delivery-attempt`}
          shipment={parcel}
          wide={wide}
          onChanged={() => revalidator.revalidate()}
        />
      )}
      documents={<TaxDocumentLinks base={`/api/orders/${order.number}`} documents={order.documents} />}
      cancelling={dialog === "cancel"}
      setCancelling={(open) => setDialog(open ? "cancel" : null)}
      cancel={cancel}
      onReturn={openReturn}
    >
      <Dialog open={dialog === "return"} title="Request a return" onClose={() => setDialog(null)}>
        <Field
          id="return-reason"
          label="What is wrong with the order?"
          hint="For example: the jar arrived cracked, or a different product came. We will reply by e-mail."
        >
          <Textarea
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={3}
            maxLength={500}
            required
          />
        </Field>
        {returnError && (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {returnError}
          </p>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setDialog(null)}>
            Close
          </Button>
          <Button type="button" disabled={sendingReturn || reason.trim().length < 10} onClick={requestReturn}>
            {sendingReturn ? "Sending…" : "Send request"}
          </Button>
        </div>
      </Dialog>
    </ShopperOrderPage>
  );
}

export const handle: RouteHandle = { meta: privatePage("Your order") };
