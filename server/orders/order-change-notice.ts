import { eq } from "drizzle-orm";
import { isMobileAccountEmail } from "../../common/mobile-account.ts";
import type { Tx } from "../db/client.ts";
import { orderEvents, orders, users } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { guestOrderLink } from "./guest-order-link.ts";

export const ORDER_CHANGE_JOB = "order-change-notice";

/**
 * Queues the shopper's notice of a correction staff made, in the transaction that made it. The payload names
 * the history entry, so each notice says what that change was, even after a later one.
 */
export async function enqueueOrderChangeNotice(tx: Tx, orderId: string, eventId: number) {
  await enqueueJob(tx, { kind: ORDER_CHANGE_JOB, payload: { orderId, eventId } });
}

/**
 * Tells the shopper what staff changed on the order: by e-mail, or by SMS to an account made with a mobile
 * number (where its other order notices go). Throws when the mail server fails, so the job is retried.
 */
export async function deliverOrderChangeNotice(deps: Deps, payload: Record<string, unknown>) {
  const orderId = String(payload.orderId);
  const [row] = await deps.db
    .select({ order: orders, email: users.email, phoneNumber: users.phoneNumber })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  const [event] = await deps.db
    .select({ note: orderEvents.note })
    .from(orderEvents)
    .where(eq(orderEvents.id, Number(payload.eventId)));
  const to = row?.email ?? row?.order.guestEmail;
  if (!row || !to || !event?.note) return;
  const { order } = row;
  const link = row.email ? `${deps.env.PUBLIC_URL}/orders/${order.number}` : guestOrderLink(deps.env, order);
  const shop = deps.env.SHOP_NAME;
  if (row.email && isMobileAccountEmail(row.email)) {
    if (!row.phoneNumber) return;
    const sent = await deps.sms.sendNotice({
      to: row.phoneNumber,
      text: `${shop}: we changed your order ${order.number} as agreed. See what changed: ${link}`,
      vars: { number: order.number, status: "changed", link },
    });
    if (!sent) log.warn({ order: order.number }, "an order change notice was not sent by SMS");
    return;
  }
  const text = [
    `We have changed your order ${order.number}.`,
    event.note,
    `See your order: ${link}`,
    "If you did not ask for this change, reply to this e-mail and we will put it right.",
    `${shop}`,
  ].join("\n\n");
  await deps.mailer.send({ to, subject: `Order ${order.number} changed`, text, html: textToHtml(text) });
}
