import { createHmac, timingSafeEqual } from "node:crypto";
import type { Env } from "../env.ts";
import { httpError } from "../errors.ts";
import { log, serializeError } from "../log.ts";

/** Razorpay, when its keys are configured; otherwise the shop takes cash on delivery only. */
export type RazorpayConfig = {
  keyId: string;
  keySecret: string;
  webhookSecret: string | undefined;
  apiBase: string;
  checkoutUrl: string;
};

export function razorpayConfig(env: Env): RazorpayConfig | null {
  if (!env.RAZORPAY_KEY_ID || !env.RAZORPAY_KEY_SECRET) return null;
  return {
    keyId: env.RAZORPAY_KEY_ID,
    keySecret: env.RAZORPAY_KEY_SECRET,
    webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
    apiBase: env.RAZORPAY_API_BASE.replace(/\/+$/, ""),
    checkoutUrl: env.RAZORPAY_CHECKOUT_URL,
  };
}

/**
 * The hosts Razorpay Checkout needs in the Content-Security-Policy: its script, the frames and calls it
 * makes to the API host, and (for the real service) its other *.razorpay.com hosts. Empty when not configured.
 */
export function razorpayCspSources(env: Env) {
  const config = razorpayConfig(env);
  if (!config) return { script: [], frame: [], connect: [], img: [] };
  const checkout = new URL(config.checkoutUrl).origin;
  const api = new URL(config.apiBase).origin;
  const razorpayHosts = [checkout, api].some((origin) => new URL(origin).hostname.endsWith("razorpay.com"))
    ? ["https://*.razorpay.com"]
    : [];
  const both = [...new Set([checkout, api])];
  return {
    script: [checkout],
    frame: [...both, ...razorpayHosts],
    connect: [...both, ...razorpayHosts],
    img: [...both, ...razorpayHosts],
  };
}

const hmacHex = (secret: string, message: string) =>
  createHmac("sha256", secret).update(message).digest("hex");

function sameHex(expected: string, given: string) {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Razorpay's checkout signature: HMAC-SHA256 of "<razorpay order id>|<payment id>" with the key secret. */
export const paymentSignature = (keySecret: string, razorpayOrderId: string, paymentId: string) =>
  hmacHex(keySecret, `${razorpayOrderId}|${paymentId}`);

export function verifyPaymentSignature(
  keySecret: string,
  razorpayOrderId: string,
  paymentId: string,
  signature: string,
) {
  return sameHex(paymentSignature(keySecret, razorpayOrderId, paymentId), signature);
}

/** Webhooks are signed over the raw request body with the webhook secret (not the key secret). */
export const webhookSignature = (webhookSecret: string, rawBody: string) => hmacHex(webhookSecret, rawBody);

export function verifyWebhookSignature(webhookSecret: string, rawBody: string, signature: string) {
  return sameHex(webhookSignature(webhookSecret, rawBody), signature);
}

async function callRazorpay<T>(config: RazorpayConfig, path: string, body?: unknown): Promise<T> {
  const auth = Buffer.from(`${config.keyId}:${config.keySecret}`).toString("base64");
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Authorization: `Basic ${auth}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    log.error({ path, err: serializeError(error) }, "Razorpay request failed");
    throw httpError(
      502,
      "payment_gateway_unavailable",
      "The payment service did not answer. Please try again.",
    );
  }
  const data = (await response.json().catch(() => undefined)) as
    | (T & { error?: { description?: string } })
    | undefined;
  if (!response.ok || !data) {
    log.error(
      { path, status: response.status, description: data?.error?.description },
      "Razorpay refused a request",
    );
    // What Razorpay said stays on the error for `npm run check:services`; the shopper sees only the message.
    throw Object.assign(
      httpError(502, "payment_gateway_error", "The payment service refused the request. Please try again."),
      { upstreamStatus: response.status, upstreamDescription: data?.error?.description ?? null },
    );
  }
  return data;
}

/**
 * Razorpay's Fetch All Orders (GET /v1/orders, `count=1`), read-only: proves the key id and secret work, for
 * `npm run check:services`.
 */
export function listRazorpayOrders(config: RazorpayConfig) {
  return callRazorpay<{ entity: string; count: number }>(config, "/v1/orders?count=1");
}

/** A Razorpay order for the amount to pay; the receipt ties it to our order number. */
export function createRazorpayOrder(
  config: RazorpayConfig,
  order: { amountPaise: number; receipt: string; orderId: string },
) {
  return callRazorpay<{ id: string; amount: number; currency: string; status: string }>(
    config,
    "/v1/orders",
    {
      amount: order.amountPaise,
      currency: "INR",
      receipt: order.receipt,
      notes: { orderId: order.orderId },
    },
  );
}

/** Refunds a captured payment in full to the original method. */
export function refundRazorpayPayment(
  config: RazorpayConfig,
  payment: { paymentId: string; amountPaise: number; receipt: string },
) {
  return callRazorpay<{ id: string; amount: number; status: string }>(
    config,
    `/v1/payments/${encodeURIComponent(payment.paymentId)}/refund`,
    { amount: payment.amountPaise, receipt: payment.receipt },
  );
}

/**
 * The refunds made of a payment (Razorpay's "Fetch Multiple Refunds for a Payment", GET
 * /v1/payments/:id/refunds, up to 100): a refund retried after its answer was lost is found here by its receipt
 * instead of being made twice.
 */
export async function listRazorpayRefunds(config: RazorpayConfig, paymentId: string) {
  const list = await callRazorpay<{ items: { id: string; amount: number; receipt: string | null }[] }>(
    config,
    `/v1/payments/${encodeURIComponent(paymentId)}/refunds?count=100`,
  );
  return list.items;
}
