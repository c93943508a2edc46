import type { RazorpayCheckout } from "../../common/orders.ts";

export type RazorpayResponse = {
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

/**
 * Opens Razorpay Checkout with the options the server made, and once the shopper pays hands the result to
 * `verify` (the server checks the signature). Resolves null when the shopper closes the window.
 */
export async function openRazorpayCheckout<T>(
  checkout: RazorpayCheckout,
  verify: (paid: {
    razorpayPaymentId: string;
    razorpayOrderId: string;
    razorpaySignature: string;
  }) => Promise<T>,
): Promise<T | null> {
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
        verify({
          razorpayPaymentId: response.razorpay_payment_id,
          razorpayOrderId: response.razorpay_order_id,
          razorpaySignature: response.razorpay_signature,
        }).then(resolve, reject);
      },
      modal: { ondismiss: () => resolve(null) },
    });
    razorpay.open();
  });
}
