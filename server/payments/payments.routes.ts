import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { log } from "../log.ts";
import { razorpayConfig, verifyWebhookSignature } from "../money/razorpay.ts";
import { takeRazorpayPayment } from "./take-payment.ts";

/** The part of Razorpay's webhook payload the shop reads; Razorpay sends much more, which is ignored. */
const paymentEvent = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z
        .object({
          entity: z.object({ id: z.string(), order_id: z.string().nullable(), amount: z.number().int() }),
        })
        .optional(),
    })
    .optional(),
});

/** Events that mean the money is captured. */
const PAID_EVENTS = new Set(["payment.captured", "order.paid"]);

/** Razorpay's server-to-server notices: they confirm payments whose browser never came back. */
export function paymentRoutes(deps: Deps) {
  return new Hono().post(
    "/razorpay/webhook",
    bodyLimit({
      maxSize: 256 * 1024,
      onError: () => {
        throw httpError(413, "payload_too_large", "The webhook body is too large.");
      },
    }),
    async (c) => {
      const secret = razorpayConfig(deps.env)?.webhookSecret;
      if (!secret) throw httpError(503, "webhook_not_configured", "Razorpay webhooks are not configured.");
      // The signature covers the exact bytes sent, so the body is read raw and parsed only once it is verified.
      const raw = await c.req.text();
      const signature = c.req.header("X-Razorpay-Signature") ?? "";
      if (!verifyWebhookSignature(secret, raw, signature)) {
        throw httpError(400, "invalid_signature", "The webhook signature does not match.");
      }
      let parsed: z.infer<typeof paymentEvent>;
      try {
        parsed = paymentEvent.parse(JSON.parse(raw));
      } catch {
        throw httpError(400, "invalid_request", "The webhook body is not a Razorpay event.");
      }
      const payment = parsed.payload?.payment?.entity;
      if (PAID_EVENTS.has(parsed.event) && payment?.order_id) {
        const result = await takeRazorpayPayment(deps, {
          razorpayOrderId: payment.order_id,
          paymentId: payment.id,
          via: "webhook",
          amountPaise: payment.amount,
        });
        if (!result) log.warn({ razorpayOrderId: payment.order_id }, "Razorpay webhook for an unknown order");
      }
      // Any verified event is acknowledged, so Razorpay does not retry what the shop does not act on.
      return c.json({ received: true });
    },
  );
}
