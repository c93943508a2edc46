import type { OrderDetail, RazorpayCheckout } from "../../../common/orders.ts";
import { api } from "../../lib/api.ts";
import { openRazorpayCheckout } from "../../lib/razorpay-checkout.ts";

export type PaymentOutcome =
  | { result: "paid"; order: OrderDetail }
  /** Paid, but too late to apply (the order was cancelled, or its last units sold meanwhile): refunded whole. */
  | { result: "refunded"; order: OrderDetail }
  | { result: "dismissed" };

/** What the shopper reads when their payment could not be applied and is on its way back. */
export const PAYMENT_REFUNDED_NOTICE =
  "Your payment arrived after this order had changed, so it could not be applied: we are refunding all of it to your original payment method, and have e-mailed you.";

/**
 * Opens Razorpay Checkout for an order awaiting payment and, once the shopper pays, has the server
 * verify the signature. If the page never hears back, Razorpay's webhook confirms the order instead.
 * A guest's order is paid through its signed link (`token`) instead of the account.
 */
export async function payOnline(number: string, token?: string): Promise<PaymentOutcome> {
  const path = (action: string) =>
    token
      ? `/guest-orders/${number}/${action}?token=${encodeURIComponent(token)}`
      : `/orders/${number}/${action}`;
  const checkout = await api<RazorpayCheckout>(path("payment"), { method: "POST" });
  const paid = await openRazorpayCheckout(checkout, (body) =>
    api<{ order: OrderDetail }>(path("payment/verify"), { method: "POST", body }),
  );
  if (!paid) return { result: "dismissed" };
  return paid.order.status === "awaiting_payment" || paid.order.status === "cancelled"
    ? { result: "refunded", order: paid.order }
    : { result: "paid", order: paid.order };
}
