import { eq } from "drizzle-orm";
import { type CartReminderSettings, DEFAULT_REMINDER_SETTINGS } from "../../common/cart-reminders.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { cartReminderSettings } from "../db/schema.ts";

/** The owner's choices about cart reminders, or the defaults until the first save. */
export async function readReminderSettings(db: Pick<DbOrTx, "select">): Promise<CartReminderSettings> {
  const [row] = await db
    .select({
      enabled: cartReminderSettings.enabled,
      delayMinutes: cartReminderSettings.delayMinutes,
      secondReminder: cartReminderSettings.secondReminder,
      codePercent: cartReminderSettings.codePercent,
      codeDays: cartReminderSettings.codeDays,
    })
    .from(cartReminderSettings)
    .where(eq(cartReminderSettings.id, 1));
  return row ?? DEFAULT_REMINDER_SETTINGS;
}

/** Saves them, audited in the same transaction. */
export async function saveReminderSettings(
  db: Db,
  settings: CartReminderSettings,
  actor: AuditActor,
): Promise<CartReminderSettings> {
  return db.transaction(async (tx) => {
    await tx.select({ id: cartReminderSettings.id }).from(cartReminderSettings).for("update");
    const before = await readReminderSettings(tx);
    await tx
      .insert(cartReminderSettings)
      .values({ id: 1, ...settings, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: cartReminderSettings.id,
        set: { ...settings, updatedBy: actor.id, updatedAt: new Date() },
      });
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "cart-reminders",
      action: "update",
      before,
      after: settings,
    });
    return settings;
  });
}
