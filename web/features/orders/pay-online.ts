import type { OrderDetail, RazorpayCheckout } from "../../../common/orders.ts";
import { api } from "../../lib/api.ts";

type RazorpayResponse = {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
};
type RazorpayInstance = { open: () => void };
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

const loading = new Map<string, Promise<RazorpayConstructor>>();

/** Razorpay Checkout's script, loaded once, only when someone pays online. */
function loadCheckout(url: string): Promise<RazorpayConstructor> {
  const known = loading.get(url);
  if (known) return known;
  const promise = new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () =>
      window.Razorpay ? resolve(window.Razorpay) : reject(new Error("Razorpay did not load"));
    script.onerror = () => {
      loading.delete(url);
      script.remove();
      reject(
        new Error("The payment window could not be loaded. Please check your connection and try again."),
      );
    };
    document.head.append(script);
  });
  loading.set(url, promise);
  return promise;
}

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
  const Razorpay = await loadCheckout(checkout.scriptUrl);
  return new Promise((resolve, reject) => {
    const razorpay = new Razorpay({
      key: checkout.keyId,
      order_id: checkout.razorpayOrderId,
      amount: checkout.amountPaise,
      currency: checkout.currency,
      name: checkout.shopName,
      description: checkout.description,
      prefill: checkout.prefill,
      timeout: checkout.timeoutSeconds,
      theme: { color: "#15803d" },
      handler: (response: RazorpayResponse) => {
        api<{ order: OrderDetail }>(path("payment/verify"), {
          method: "POST",
          body: {
            razorpayPaymentId: response.razorpay_payment_id,
            razorpayOrderId: response.razorpay_order_id,
            razorpaySignature: response.razorpay_signature,
          },
        }).then(({ order }) => resolve({ result: "paid", order }), reject);
      },
      modal: { ondismiss: () => resolve({ result: "dismissed" }) },
    });
    razorpay.open();
  });
}
