import { eq } from "drizzle-orm";
import { trackingUrl } from "../../common/couriers.ts";
import { type OrderMailKind, STATUS_LABELS } from "../../common/order-lifecycle.ts";
import type { Tx } from "../db/client.ts";
import { orders, shopSettings } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { enqueueJobs } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import { orderWithPayment, type PaidOrder } from "../money/ledger.ts";
import type { SmsNotice } from "../sms/sms-sender.ts";
import { guestOrderLink } from "./guest-order-link.ts";

/** Rupees as SMS carry them: "Rs." keeps a message in the GSM alphabet (160 characters, not 70 with ₹). */
const rupees = (paise: number) => `Rs.${(paise / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}`;

/**
 * The SMS that stands in for an order e-mail to an account made with a mobile number (no e-mail): placed,
 * shipped (with the courier's tracking link), out for delivery, delivered, not delivered (a courier's failed
 * attempt) and cancelled, and the link to a guest's order asked for by mobile in "Find my order"; the other
 * mails have no SMS. Short, one link each;
 * `vars` are the same notice for a provider's registered template (MSG91_ORDER_TEMPLATE_ID).
 */
export function orderNotice(
  env: Deps["env"],
  order: PaidOrder,
  kind: OrderMailKind,
  link: string,
): Omit<SmsNotice, "to"> | null {
  const shop = env.SHOP_NAME;
  const { number } = order;
  switch (kind) {
    case "placed":
      return {
        text: `${shop}: order ${number} of ${rupees(order.totalPaise)} is ${order.paidAt ? "paid and confirmed" : "placed (cash on delivery)"}. See it: ${link}`,
        vars: { number, status: "placed", link },
      };
    case "shipped": {
      const tracking = trackingUrl(order.courier, order.trackingNumber, order.trackingUrl) ?? link;
      return {
        text: `${shop}: order ${number} has shipped with ${order.courier ?? "our courier"}, tracking ${order.trackingNumber ?? "-"}. Track it: ${tracking}`,
        vars: { number, status: "shipped", link: tracking },
      };
    }
    case "out_for_delivery":
      return {
        text: `${shop}: order ${number} is out for delivery today.${order.paymentMethod === "cod" ? ` Keep ${rupees(order.totalPaise)} ready.` : ""} See it: ${link}`,
        vars: { number, status: "out for delivery", link },
      };
    case "delivered":
      return {
        text: `${shop}: order ${number} is delivered. Anything wrong? Tell us within 6 days: ${link}`,
        vars: { number, status: "delivered", link },
      };
    case "undelivered":
      return {
        text: `${shop}: the courier could not deliver order ${number}. Choose a day or correct the address: ${link}`,
        vars: { number, status: "not delivered", link },
      };
    case "cancelled":
      return {
        text: `${shop}: order ${number} is cancelled.${order.paidAt ? ` Your ${rupees(order.totalPaise)} is refunded within 6-8 days.` : ""} See it: ${link}`,
        vars: { number, status: "cancelled", link },
      };
    case "link": {
      const status = STATUS_LABELS[order.status].toLowerCase();
      return {
        text: `${shop}: order ${number} is ${status}. See it: ${link}`,
        vars: { number, status, link },
      };
    }
    default:
      return null;
  }
}

export const ORDER_LINK_SMS_JOB = "order-link-sms";

/**
 * "Find my order" asked with the order's mobile: the guest order's link goes to that phone as well as to the
 * order's e-mail, since a shopper who types a mobile may not have the mailbox at hand.
 */
export async function deliverOrderLinkSms(deps: Deps, orderId: string) {
  const [order] = await deps.db.select(orderWithPayment).from(orders).where(eq(orders.id, orderId));
  if (!order?.guestEmail) return; // added to an account since: its page is in My Orders, not behind a link
  await deliverOrderSms(deps, order, order.shipPhone, "link", guestOrderLink(deps.env, order));
}

export const GUEST_DELIVERY_SMS_JOB = "guest-delivery-sms";

/** The parcel's news a guest may be texted, when the owner chose to (the placed and cancelled notices stay mail). */
const DELIVERY_NEWS = new Set<OrderMailKind>(["shipped", "out_for_delivery", "delivered", "undelivered"]);

/** Whether this order's news of this kind goes to its delivery phone by SMS, as things stand now. */
async function textsGuestNews(db: Deps["db"] | Tx, orderId: string, kind: OrderMailKind) {
  if (!DELIVERY_NEWS.has(kind)) return false;
  const [found] = await db
    .select({
      chosen: shopSettings.guestDeliverySms,
      guestEmail: orders.guestEmail,
      whatsappUpdates: orders.whatsappUpdates,
    })
    .from(orders)
    .innerJoin(shopSettings, eq(shopSettings.id, 1))
    .where(eq(orders.id, orderId));
  // An order added to an account is told by that account's mail; a guest who chose WhatsApp gets the news
  // there, so the owner does not pay twice for it.
  return Boolean(found?.chosen && found.guestEmail && !found.whatsappUpdates);
}

/**
 * Queues the SMS of a guest's parcel news beside its mail, in the transaction of the change it tells about,
 * when the owner has chosen to text guests (Settings, "Guests' parcel news by SMS"). Its own job, so a mail
 * retried after a mail server's failure never sends the SMS twice.
 */
export async function enqueueGuestDeliverySms(tx: Tx, orderId: string, kind: OrderMailKind) {
  if (!(await textsGuestNews(tx, orderId, kind))) return;
  await enqueueJobs(tx, [{ kind: GUEST_DELIVERY_SMS_JOB, payload: { orderId, kind } }]);
}

/** The queued guest SMS, sent unless the owner has turned it off or the order has joined an account since. */
export async function deliverGuestDeliverySms(deps: Deps, orderId: string, kind: OrderMailKind) {
  if (!(await textsGuestNews(deps.db, orderId, kind))) return;
  const [order] = await deps.db.select(orderWithPayment).from(orders).where(eq(orders.id, orderId));
  if (!order) return;
  await deliverOrderSms(deps, order, order.shipPhone, kind, guestOrderLink(deps.env, order));
}

/** Sends the notice to the number (an account's verified one, or a guest order's); one the provider cannot carry is logged. */
export async function deliverOrderSms(
  deps: Deps,
  order: PaidOrder,
  phoneNumber: string,
  kind: OrderMailKind,
  link: string,
) {
  const notice = orderNotice(deps.env, order, kind, link);
  if (!notice) return;
  if (!(await deps.sms.sendNotice({ to: phoneNumber, ...notice }))) {
    log.warn(
      { order: order.number, kind, provider: deps.sms.provider },
      "an order notice by SMS was not sent: MSG91 has no notice template (MSG91_ORDER_TEMPLATE_ID)",
    );
  }
}
