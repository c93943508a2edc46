import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { applyCartWhatsAppFailure } from "./cart-reminders/left-carts.ts";
import { confirmRequestJob } from "./cod/confirm-request.ts";
import { cancelCodOrder, confirmCodOrder } from "./cod-orders/confirmation.ts";
import { orderEvents, orders, whatsappMessages, whatsappReplies } from "./db/schema.ts";
import type { Deps } from "./deps.ts";
import { httpError } from "./errors.ts";
import { enqueueJob } from "./jobs/job-queue.ts";
import { log } from "./log.ts";
import { webhookSignatureMatches, whatsAppNumber } from "./messaging/whatsapp.ts";
import { parseReplyPayload } from "./orders/order-whatsapp.ts";
import { smsReachesShoppers } from "./sms/sms-sender.ts";
import { validate } from "./validate.ts";

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
/**
 * A status of a message the shop sent, as Meta's WhatsApp Node.js SDK types it (WhatsApp/WhatsApp-Nodejs-SDK,
 * src/types/webhooks.ts, StatusesObject: id, status, timestamp, recipient_id, errors[] of code, title,
 * message, error_data). A failed template is reported only here.
 */
const messageStatus = z.object({
  id: z.string().min(1).max(200),
  status: z.string().max(40),
  timestamp: z.string().regex(/^\d{1,12}$/),
  recipient_id: z.string().max(20).optional(),
  errors: z
    .array(z.object({ code: z.number().int(), title: z.string().max(300).optional() }).passthrough())
    .max(10)
    .optional(),
});
type MessageStatus = z.infer<typeof messageStatus>;

const notification = z.object({
  object: z.string(),
  entry: z
    .array(
      z.object({
        changes: z.array(
          z.object({
            field: z.string(),
            value: z
              .object({
                messages: z.array(reply).optional(),
                statuses: z.array(messageStatus).max(1000).optional(),
              })
              .passthrough(),
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
        const statuses = parsed.entry.flatMap((entry) =>
          entry.changes
            .filter((change) => change.field === "messages")
            .flatMap((change) => change.value.statuses ?? []),
        );
        for (const each of statuses) await applyStatus(deps, each);
        return c.json({ received: true });
      },
    );
}

/** Statuses only go forward: sent, delivered, read; failed is final whenever it comes. */
const STATUS_RANK = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 } as const;
type StoredStatus = keyof typeof STATUS_RANK;

/**
 * Keeps a message's latest status (docs/decisions/078). A COD question that failed is asked again by SMS at
 * once, and the order's history says so, or says the shopper was never reached when no SMS can carry it.
 */
async function applyStatus(deps: Deps, status: MessageStatus) {
  if (!Object.hasOwn(STATUS_RANK, status.status) || status.status === "accepted") return;
  const next = status.status as StoredStatus;
  const error = status.errors?.[0];
  // A cart reminder is kept on its left cart, not with the order messages (docs/decisions/096).
  if (next === "failed") {
    const reminder = await applyCartWhatsAppFailure(deps.db, {
      messageId: status.id,
      code: error?.code ?? null,
      title: error?.title ?? null,
    });
    if (reminder) return;
  }
  const failed = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.messageId, status.id))
      .for("update");
    if (!row || row.status === "failed" || STATUS_RANK[next] <= STATUS_RANK[row.status]) return null;
    await tx
      .update(whatsappMessages)
      .set({
        status: next,
        errorCode: error?.code ?? null,
        errorTitle: error?.title?.slice(0, 300) ?? null,
        statusAt: new Date(Number(status.timestamp) * 1000),
      })
      .where(eq(whatsappMessages.messageId, status.id));
    if (next !== "failed" || row.kind !== "cod_confirm") return null;
    const [order] = await tx
      .select({ status: orders.status, codConfirmBy: orders.codConfirmBy })
      .from(orders)
      .where(eq(orders.id, row.orderId))
      .for("update");
    if (order?.status !== "placed" || !order.codConfirmBy) return null;
    const bySms = smsReachesShoppers(deps.env);
    const why = error ? ` (${error.code}${error.title ? `: ${error.title}` : ""})` : "";
    if (bySms) {
      await enqueueJob(tx, {
        ...confirmRequestJob(row.orderId),
        key: `${confirmRequestJob(row.orderId).key}:whatsapp-failed`,
      });
    }
    await tx.insert(orderEvents).values({
      orderId: row.orderId,
      fromStatus: "placed",
      toStatus: "placed",
      kind: "message",
      actor: "system",
      actorUserId: null,
      note: (bySms
        ? `WhatsApp could not deliver the cash-on-delivery question${why}; it was sent again by SMS`
        : `WhatsApp could not deliver the cash-on-delivery question${why}, and no SMS route can carry it: the shopper was never reached`
      ).slice(0, 500),
      createdAt: new Date(),
    });
    return bySms;
  });
  if (failed) deps.jobs.wake();
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
