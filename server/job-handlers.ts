import { and, eq, lt } from "drizzle-orm";
import type { OrderMailKind } from "../common/order-lifecycle.ts";
import { ROLL_UP_FUNNEL_JOB, rollUpFunnel } from "./analytics/funnel.ts";
import { ACCOUNT_MAIL_JOB, deliverAccountMail } from "./auth/account-mail.ts";
import {
  CART_REMINDER_JOB,
  CART_REMINDER_SWEEP_JOB,
  CART_WHATSAPP_REMINDER_JOB,
  sendCartReminder,
  sendCartWhatsAppReminder,
  sweepLeftCarts,
} from "./cart-reminders/left-carts.ts";
import { COD_CONFIRM_REQUEST_JOB, deliverConfirmRequest } from "./cod/confirm-request.ts";
import { LAPSE_UNCONFIRMED_JOB, lapseUnconfirmedOrders } from "./cod-orders/confirmation.ts";
import { jobs } from "./db/schema.ts";
import type { Deps } from "./deps.ts";
import type { JobHandler } from "./jobs/job-queue.ts";
import { log } from "./log.ts";
import { deliverOrderChangeNotice, ORDER_CHANGE_JOB } from "./orders/order-change-notice.ts";
import { deliverOrderMail, ORDER_MAIL_JOB } from "./orders/order-mail.ts";
import {
  deliverGuestDeliverySms,
  deliverOrderLinkSms,
  GUEST_DELIVERY_SMS_JOB,
  ORDER_LINK_SMS_JOB,
} from "./orders/order-sms.ts";
import { EXPIRE_UNPAID_ORDERS_JOB, expireUnpaidOrders } from "./orders/order-status.ts";
import { deliverWhatsApp, WHATSAPP_MESSAGE_JOB, type WhatsAppMessageKind } from "./orders/order-whatsapp.ts";
import { REFUND_UNAPPLIED_JOB, refundUnappliedPayment } from "./payments/take-payment.ts";
import { SWEEP_UPLOADS_JOB, sweepUnusedUploads } from "./products/product-images.ts";
import { withOwnersShopName } from "./settings/settings.data.ts";
import { POLL_SHIPMENTS_JOB, pollQuietShipments } from "./shipping/shipments.ts";
import { deliverSignInCode, SIGN_IN_CODE_JOB } from "./sms/sign-in-code-job.ts";

/** Finished jobs are kept this long (to look into a complaint about a mail), then deleted. */
const KEEP_DONE_JOBS_DAYS = 7;

/** Every kind of job the shop queues and what does it. */
export function jobHandlers(deps: Deps): Record<string, JobHandler> {
  // Messages are written with the owner's shop name as it stands when they go out (docs/decisions/068, 079):
  // an SMS from a name the shopper does not know reads as a scam.
  const named = async (): Promise<Deps> => ({ ...deps, env: await withOwnersShopName(deps.db, deps.env) });
  return {
    [ACCOUNT_MAIL_JOB]: async (payload) =>
      deliverAccountMail(
        { db: deps.db, env: (await named()).env, mailer: deps.mailer, secret: deps.authSecret },
        payload,
      ),
    [ORDER_LINK_SMS_JOB]: async (payload) => deliverOrderLinkSms(await named(), String(payload.orderId)),
    [GUEST_DELIVERY_SMS_JOB]: async (payload) =>
      deliverGuestDeliverySms(await named(), String(payload.orderId), payload.kind as OrderMailKind),
    [ORDER_MAIL_JOB]: async (payload) => {
      await deliverOrderMail(deps, String(payload.orderId), payload.kind as OrderMailKind);
    },
    [ORDER_CHANGE_JOB]: async (payload) => deliverOrderChangeNotice(await named(), payload),
    [SIGN_IN_CODE_JOB]: async (payload) => {
      const { env } = await named();
      await deliverSignInCode({ env, sms: deps.sms, secret: deps.authSecret }, payload);
    },
    [SWEEP_UPLOADS_JOB]: async () => {
      const swept = await sweepUnusedUploads(deps.db);
      if (swept > 0) log.info({ swept }, "photos uploaded but never saved were deleted");
    },
    [ROLL_UP_FUNNEL_JOB]: async () => {
      const days = await rollUpFunnel(deps.db);
      if (days > 0) log.info({ days }, "funnel visits rolled up into counts per day");
    },
    [POLL_SHIPMENTS_JOB]: async () => {
      const asked = await pollQuietShipments(deps);
      if (asked > 0) log.info({ asked }, "quiet parcels asked after");
    },
    [COD_CONFIRM_REQUEST_JOB]: async (payload) => {
      await deliverConfirmRequest(await named(), String(payload.orderId));
    },
    [LAPSE_UNCONFIRMED_JOB]: async () => {
      const lapsed = await lapseUnconfirmedOrders(deps);
      if (lapsed > 0) log.info({ lapsed }, "unconfirmed cash-on-delivery orders cancelled");
    },
    [WHATSAPP_MESSAGE_JOB]: async (payload) => {
      await deliverWhatsApp(await named(), String(payload.orderId), payload.kind as WhatsAppMessageKind);
    },
    [CART_REMINDER_SWEEP_JOB]: async () => {
      const offered = await sweepLeftCarts(deps);
      if (offered > 0) log.info({ offered }, "cart reminders queued");
    },
    [CART_REMINDER_JOB]: async (payload) => {
      await sendCartReminder(await named(), String(payload.id), payload.reminder === 2 ? 2 : 1);
    },
    [CART_WHATSAPP_REMINDER_JOB]: async (payload) => {
      await sendCartWhatsAppReminder(await named(), String(payload.id));
    },
    [REFUND_UNAPPLIED_JOB]: (payload) => refundUnappliedPayment(deps, String(payload.paymentId)),
    [EXPIRE_UNPAID_ORDERS_JOB]: async () => {
      await expireUnpaidOrders(deps);
      const cutoff = new Date(Date.now() - KEEP_DONE_JOBS_DAYS * 24 * 60 * 60_000);
      await deps.db.delete(jobs).where(and(eq(jobs.status, "done"), lt(jobs.updatedAt, cutoff)));
    },
  };
}
