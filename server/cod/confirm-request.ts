import { eq } from "drizzle-orm";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, Tx } from "../db/client.ts";
import { codSettings, orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { Env } from "../env.ts";
import type { NewJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import { codConfirmLink, hoursToConfirm } from "./confirm-link.ts";

/**
 * Asking the shopper of a cash-on-delivery order to confirm it (docs/decisions/065): the owner's hours, the
 * deadline a new order is given, and the SMS that carries the one-tap link. What the answer does to the order
 * (confirmed, cancelled, lapsed) is above the orders it moves, in cod-orders/confirmation.ts.
 */

export const COD_CONFIRM_REQUEST_JOB = "cod-confirm-request";

/** The owner's hours (kept with the COD rules' switches), or the environment's first value until saved. */
export async function confirmHours(db: Pick<Db, "select">, env: Env): Promise<number> {
  const [row] = await db
    .select({ confirmHours: codSettings.confirmHours })
    .from(codSettings)
    .where(eq(codSettings.id, 1));
  return row?.confirmHours ?? env.COD_CONFIRM_HOURS;
}

/**
 * Saves the owner's hours. Only that column: the row's `updated_by` marks the COD switches as saved, and
 * must not turn the environment's COD_ENABLED and cap into the row's defaults behind the owner's back.
 */
export async function saveConfirmHours(db: Db, hours: number, actor: AuditActor): Promise<number> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ confirmHours: codSettings.confirmHours })
      .from(codSettings)
      .where(eq(codSettings.id, 1))
      .for("update");
    await tx
      .insert(codSettings)
      .values({ id: 1, confirmHours: hours })
      .onConflictDoUpdate({ target: codSettings.id, set: { confirmHours: hours, updatedAt: new Date() } });
    await recordAudit(tx, {
      actor,
      entityType: "cod_rule",
      entityId: "confirm-hours",
      action: "update",
      before: { confirmHours: before?.confirmHours ?? null },
      after: { confirmHours: hours },
    });
    return hours;
  });
}

/**
 * When a new cash-on-delivery order lapses unless confirmed: now plus the owner's hours. Existing orders
 * have no deadline and are never asked (the migration leaves theirs null).
 */
export async function codConfirmDeadline(tx: Tx, env: Env, placedAt: Date): Promise<Date> {
  return confirmDeadlineAfter(placedAt, await confirmHours(tx, env));
}

/** The same, with the hours already read in the caller's transaction (readCodRules carries them). */
export const confirmDeadlineAfter = (placedAt: Date, hours: number) =>
  new Date(placedAt.getTime() + hours * 3_600_000);

/** The SMS job askToConfirm queues, for a caller that queues it with others in one statement. */
export const confirmRequestJob = (orderId: string): NewJob => ({
  kind: COD_CONFIRM_REQUEST_JOB,
  payload: { orderId },
  key: `${COD_CONFIRM_REQUEST_JOB}:${orderId}`,
});

/**
 * Sends the question by SMS, as the job worker does; an order already confirmed or cancelled is not asked.
 * Throws when the SMS provider fails, so the job is retried.
 */
export async function deliverConfirmRequest(deps: Deps, orderId: string) {
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (order?.status !== "placed" || !order.codConfirmBy) return;
  const link = codConfirmLink(deps.env, deps.authSecret, order);
  const sent = await deps.sms.sendNotice({
    to: order.shipPhone,
    text: `${deps.env.SHOP_NAME}: please confirm your cash-on-delivery order ${order.number} of Rs.${order.totalPaise / 100} within ${hoursToConfirm(order)} hours, or it is cancelled. One tap: ${link}`,
    vars: { number: order.number, status: "waiting for your confirmation", link },
  });
  if (!sent) log.warn({ order: order.number }, "the COD confirmation SMS was not sent: no notice template");
}
