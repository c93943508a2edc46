import { useState } from "react";
import type { CodConfirmPage } from "../../../common/cod-confirm.ts";
import type { RazorpayCheckout } from "../../../common/orders.ts";
import { api, isApiError } from "../../lib/api.ts";
import { openRazorpayCheckout } from "../../lib/razorpay-checkout.ts";

export type CodAnswer = "confirm" | "cancel" | "pay";

/**
 * The shopper's answers to "please confirm your cash-on-delivery order", through the confirmation link's API
 * (`/api/cod-confirm/:number`, docs/decisions/065 and 072): the link's page and the order's own pages use the
 * same calls, so the money and the order's state are decided in one place. `onAnswered` gets the order as it
 * now stands and what to tell the shopper.
 */
export function useCodAnswers(
  number: string,
  token: string,
  onAnswered: (page: CodConfirmPage | null, said: string) => void,
) {
  const [busy, setBusy] = useState<CodAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = (action: string) => `/cod-confirm/${number}/${action}?token=${encodeURIComponent(token)}`;

  async function run(action: CodAnswer, work: () => Promise<void>) {
    setBusy(action);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(null);
    }
  }

  const answer = (action: "confirm" | "cancel") =>
    run(action, async () => {
      const page = await api<CodConfirmPage>(path(action), { method: "POST", body: {} });
      onAnswered(
        page,
        action === "confirm"
          ? "Thank you: your order is confirmed and goes to packing."
          : "Your order is cancelled.",
      );
    });

  // Paying online instead (docs/decisions/072): the order stays cash on delivery unless the payment goes through.
  const payOnline = () =>
    run("pay", async () => {
      const checkout = await api<RazorpayCheckout>(path("pay-online"), { method: "POST", body: {} });
      const page = await openRazorpayCheckout(checkout, (body) =>
        api<CodConfirmPage>(path("pay-online/verify"), { method: "POST", body }),
      );
      onAnswered(
        page,
        page
          ? "Thank you: your payment is received, and your order is confirmed and goes to packing."
          : "The payment window was closed. Your order is still cash on delivery, waiting for you to confirm.",
      );
    });

  return { busy, error, confirm: () => answer("confirm"), cancel: () => answer("cancel"), payOnline };
}
