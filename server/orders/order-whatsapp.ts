import { eq } from "drizzle-orm";
import { trackingUrl } from "../../common/couriers.ts";
import { formatRupees } from "../../common/money.ts";
import type { OrderMailKind } from "../../common/order-lifecycle.ts";
import type { Tx } from "../db/client.ts";
import { type OrderRow, orders, users, whatsappMessages } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { enqueueJobs, type NewJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import { sendTemplate, whatsAppConfig, whatsAppNumber } from "../messaging/whatsapp.ts";
import { orderWithPayment, type PaidOrder } from "../money/ledger.ts";
import { guestOrderLink } from "./guest-order-link.ts";

export const WHATSAPP_MESSAGE_JOB = "whatsapp-message";

/** The order news WhatsApp carries to shoppers who asked for it at checkout (issue 29). */
const UPDATE_KINDS = new Set<OrderMailKind>(["placed", "shipped", "out_for_delivery", "delivered"]);

export type WhatsAppMessageKind = "cod_confirm" | OrderMailKind;

/** The buttons' payloads: what a tap on Confirm or Cancel sends back to the webhook. */
export const confirmPayload = (orderId: string) => `cod-confirm:${orderId}`;
export const cancelPayload = (orderId: string) => `cod-cancel:${orderId}`;

export function parseReplyPayload(payload: string): { action: "confirm" | "cancel"; orderId: string } | null {
  const match = /^cod-(confirm|cancel):([0-9a-f-]{36})$/.exec(payload);
  if (!match?.[1] || !match[2]) return null;
  return { action: match[1] as "confirm" | "cancel", orderId: match[2] };
}

/**
 * Queues a WhatsApp message about an order with the change it tells of, for an order whose shopper ticked
 * "Send order updates on WhatsApp" (no job at all for the others). One per order and kind: a second
 * "shipped" of the same order is not sent twice.
 */
export async function enqueueWhatsApp(tx: Tx, orderId: string, kind: WhatsAppMessageKind) {
  if (kind !== "cod_confirm" && !UPDATE_KINDS.has(kind)) return;
  const [order] = await tx
    .select({ whatsappUpdates: orders.whatsappUpdates })
    .from(orders)
    .where(eq(orders.id, orderId));
  await enqueueJobs(tx, whatsAppJobs(orderId, kind, order?.whatsappUpdates ?? false));
}

/** The job enqueueWhatsApp queues, for a caller that already knows whether the shopper asked for WhatsApp. */
export function whatsAppJobs(orderId: string, kind: WhatsAppMessageKind, whatsappUpdates: boolean): NewJob[] {
  if (!whatsappUpdates || (kind !== "cod_confirm" && !UPDATE_KINDS.has(kind))) return [];
  return [
    {
      kind: WHATSAPP_MESSAGE_JOB,
      payload: { orderId, kind },
      key: `${WHATSAPP_MESSAGE_JOB}:${orderId}:${kind}`,
    },
  ];
}

/** "₹1,199" is fine in WhatsApp (unlike SMS): it carries Unicode. */
function updateText(order: PaidOrder, kind: OrderMailKind): string | null {
  switch (kind) {
    case "placed":
      return order.paidAt ? "is paid and confirmed" : "is placed (cash on delivery)";
    case "shipped": {
      const courier = order.courier ?? "our courier";
      return `has shipped with ${courier}, tracking ${order.trackingNumber ?? "-"}`;
    }
    case "out_for_delivery":
      return order.paymentMethod === "cod" && !order.paidAt
        ? `is out for delivery today: please keep ${formatRupees(order.totalPaise)} ready`
        : "is out for delivery today";
    case "delivered":
      return "is delivered. Anything wrong? Tell us within 6 days";
    default:
      return null;
  }
}

/**
 * Sends a queued WhatsApp message as the job worker does, reading the order as it is now. Throws when
 * WhatsApp fails, so the job is retried; a message that no longer applies (the order confirmed or cancelled
 * meanwhile, WhatsApp switched off, no template) is dropped, and logged.
 */
export async function deliverWhatsApp(deps: Deps, orderId: string, kind: WhatsAppMessageKind) {
  const config = whatsAppConfig(deps.env);
  const [found] = await deps.db
    .select({ order: orderWithPayment, email: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!found || !config) return;
  const { order } = found;
  const to = whatsAppNumber(order.shipPhone);
  if (kind === "cod_confirm") {
    if (order.status !== "placed" || !order.codConfirmBy) return;
    if (!config.templates.codConfirm) {
      log.warn({ order: order.number }, "WHATSAPP_TEMPLATE_COD_CONFIRM is not set: no confirmation asked");
      return;
    }
    const id = await sendTemplate(config, {
      to,
      template: config.templates.codConfirm,
      bodyParameters: [order.shipName, order.number, formatRupees(order.totalPaise), order.shipCity],
      quickReplyPayloads: [confirmPayload(order.id), cancelPayload(order.id)],
    });
    await recordSent(deps, id, order.id, kind);
    return;
  }
  const text = updateText(order, kind);
  if (!text) return;
  if (!config.templates.orderUpdate) {
    log.warn({ order: order.number, kind }, "WHATSAPP_TEMPLATE_ORDER_UPDATE is not set: update not sent");
    return;
  }
  const link =
    kind === "shipped"
      ? (trackingUrl(order.courier, order.trackingNumber, order.trackingUrl) ?? orderLink(deps, found))
      : orderLink(deps, found);
  const id = await sendTemplate(config, {
    to,
    template: config.templates.orderUpdate,
    bodyParameters: [order.number, text, link],
  });
  await recordSent(deps, id, order.id, kind);
}

/**
 * Keeps the message WhatsApp accepted, by its id: Meta tells whether it was sent, delivered, read or failed
 * only later, in the webhook's statuses[] (whatsapp.routes.ts).
 */
async function recordSent(deps: Deps, messageId: string, orderId: string, kind: WhatsAppMessageKind) {
  await deps.db
    .insert(whatsappMessages)
    .values({ messageId, orderId, kind, status: "accepted", statusAt: new Date() })
    .onConflictDoNothing();
}

const orderLink = (deps: Deps, { order, email }: { order: OrderRow; email: string | null }) =>
  email ? `${deps.env.PUBLIC_URL}/orders/${order.number}` : guestOrderLink(deps.env, order);
