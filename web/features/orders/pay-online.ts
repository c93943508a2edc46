import type { OrderDetail, RazorpayCheckout } from "../../../common/orders.ts";
import { api } from "../../lib/api.ts";
import { openRazorpayCheckout } from "../../lib/razorpay-checkout.ts";

export type PaymentOutcome = { result: "paid"; order: OrderDetail } | { result: "dismissed" };

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
  return paid ? { result: "paid", order: paid.order } : { result: "dismissed" };
}
