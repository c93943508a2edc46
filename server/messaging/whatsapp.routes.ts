import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { cancelCodOrder, confirmCodOrder } from "../cod/confirmation.ts";
import { orders, whatsappReplies } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { log } from "../log.ts";
import { validate } from "../validate.ts";
import { webhookSignatureMatches, whatsAppNumber } from "./whatsapp.ts";
import { parseReplyPayload } from "./whatsapp-messages.ts";

/** Meta's webhook check when the URL is saved in the app's settings. */
const verificationQuery = z
  .object({
    "hub.mode": z.string().max(40),
    "hub.verify_token": z.string().max(200),
    "hub.challenge": z.string().max(200),
  })
  .strict();

/**
 * The part of a messages notification the shop reads. Not strict, unlike the shop's own endpoints: Meta adds
 * fields as it likes (contacts, statuses, metadata, errors), and a notification is acknowledged whatever else
 * it carries, or Meta keeps sending it.
 */
const reply = z.object({
  id: z.string().min(1).max(200),
  from: z.string().max(20),
  timestamp: z.string().regex(/^\d{1,12}$/),
  type: z.string(),
  // A quick-reply button of a template message.
  button: z.object({ payload: z.string().max(200), text: z.string().max(200).optional() }).optional(),
  // The same from an interactive (session) message's reply button.
  interactive: z
    .object({ type: z.string(), button_reply: z.object({ id: z.string().max(200) }).optional() })
    .optional(),
});
const notification = z.object({
  object: z.string(),
  entry: z
    .array(
      z.object({
        changes: z.array(
          z.object({
            field: z.string(),
            value: z.object({ messages: z.array(reply).optional() }).passthrough(),
          }),
        ),
      }),
    )
    .max(100),
});
type Reply = z.infer<typeof reply>;

/**
 * WhatsApp's webhook (docs/decisions/065): GET is the subscription handshake, POST carries the shopper's
 * button replies, signed by Meta with the app's secret (X-Hub-Signature-256). Each reply is applied once
 * (by WhatsApp's message id). Arrival order does not matter: a cancellation is final and a confirmation
 * never undoes it, so Confirm and Cancel end cancelled whichever Meta delivers first.
 */
export function whatsAppWebhookRoutes(deps: Deps) {
  return new Hono()
    .get("/whatsapp", validate("query", verificationQuery), (c) => {
      const expected = deps.env.WHATSAPP_VERIFY_TOKEN;
      if (!expected) throw httpError(503, "webhook_not_configured", "WhatsApp's webhook is not configured.");
      const query = c.req.valid("query");
      if (query["hub.mode"] !== "subscribe" || query["hub.verify_token"] !== expected) {
        throw httpError(403, "forbidden", "The verify token does not match.");
      }
      return c.text(query["hub.challenge"]);
    })
    .post(
      "/whatsapp",
      bodyLimit({
        maxSize: 256 * 1024,
        onError: () => {
          throw httpError(413, "payload_too_large", "The webhook body is too large.");
        },
      }),
      async (c) => {
        const secret = deps.env.WHATSAPP_APP_SECRET;
        if (!secret) throw httpError(503, "webhook_not_configured", "WhatsApp's webhook is not configured.");
        // The signature covers the exact bytes sent, so the body is read raw and parsed only once it is verified.
        const raw = await c.req.text();
        if (!webhookSignatureMatches(secret, raw, c.req.header("X-Hub-Signature-256") ?? "")) {
          throw httpError(401, "invalid_signature", "The webhook signature does not match.");
        }
        let parsed: z.infer<typeof notification>;
        try {
          parsed = notification.parse(JSON.parse(raw));
        } catch {
          throw httpError(400, "invalid_request", "The webhook body is not a WhatsApp notification.");
        }
        const replies = parsed.entry.flatMap((entry) =>
          entry.changes
            .filter((change) => change.field === "messages")
            .flatMap((change) => change.value.messages ?? []),
        );
        for (const each of replies) await applyReply(deps, each);
        return c.json({ received: true });
      },
    );
}

/** What a reply came to, kept with its id. */
type Outcome = "applied" | "replayed" | "unknown_order" | "wrong_sender" | "not_a_reply" | "refused";

async function applyReply(deps: Deps, message: Reply): Promise<Outcome> {
  const payload = message.button?.payload ?? message.interactive?.button_reply?.id;
  const parsed = payload ? parseReplyPayload(payload) : null;
  const sentAt = new Date(Number(message.timestamp) * 1000);
  const [seen] = await deps.db
    .select({ outcome: whatsappReplies.outcome })
    .from(whatsappReplies)
    .where(eq(whatsappReplies.messageId, message.id));
  if (seen) return "replayed";
  const outcome = parsed ? await act(deps, message, parsed) : "not_a_reply";
  await deps.db
    .insert(whatsappReplies)
    .values({
      messageId: message.id,
      orderId: parsed && outcome !== "unknown_order" ? parsed.orderId : null,
      action: parsed?.action ?? message.type,
      outcome,
      sentAt,
    })
    .onConflictDoNothing();
  if (outcome !== "applied" && outcome !== "not_a_reply") {
    log.info({ messageId: message.id, outcome }, "a WhatsApp reply was not applied");
  }
  return outcome;
}

async function act(
  deps: Deps,
  message: Reply,
  { action, orderId }: { action: "confirm" | "cancel"; orderId: string },
): Promise<Outcome> {
  const [order] = await deps.db
    .select({ id: orders.id, phone: orders.shipPhone })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return "unknown_order";
  // Only the number the question went to answers it.
  if (whatsAppNumber(order.phone) !== message.from.replace(/\D/g, "")) return "wrong_sender";
  try {
    if (action === "confirm") await confirmCodOrder(deps, orderId, "whatsapp");
    else await cancelCodOrder(deps, orderId, "whatsapp");
    return "applied";
  } catch (error) {
    // The order moved on (packed, cancelled ...): the reply is acknowledged and kept, not applied.
    if ((error as { status?: number }).status === 409) return "refused";
    throw error;
  }
}
