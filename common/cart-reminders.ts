import { z } from "zod";
import type { Paise } from "./money.ts";

/**
 * Carts left behind (issue 44, docs/decisions/089): the owner's settings, the shopper's marketing consent and
 * what the admin shows of the reminders.
 */

export const REMINDER_DELAY_MINUTES = { min: 15, max: 4320 } as const;
export const REMINDER_CODE_PERCENT_MAX = 50;
export const REMINDER_CODE_DAYS = { min: 1, max: 30 } as const;
/** An order placed this long after the first reminder, by the shopper reminded, is a cart won back. */
export const WON_BACK_DAYS = 7;

export const cartReminderSettingsSchema = z
  .object({
    enabled: z.boolean(),
    delayMinutes: z
      .number()
      .int("must be whole minutes")
      .min(REMINDER_DELAY_MINUTES.min, `must be at least ${REMINDER_DELAY_MINUTES.min} minutes`)
      .max(REMINDER_DELAY_MINUTES.max, "must be at most 3 days"),
    secondReminder: z.boolean(),
    codePercent: z
      .number()
      .int("must be a whole percent")
      .min(0, "must be 0 (no code) or more")
      .max(REMINDER_CODE_PERCENT_MAX, `must be at most ${REMINDER_CODE_PERCENT_MAX}%`),
    codeDays: z
      .number()
      .int("must be whole days")
      .min(REMINDER_CODE_DAYS.min, "must be at least 1 day")
      .max(REMINDER_CODE_DAYS.max, `must be at most ${REMINDER_CODE_DAYS.max} days`),
  })
  .strict();
export type CartReminderSettings = z.infer<typeof cartReminderSettingsSchema>;

export const DEFAULT_REMINDER_SETTINGS: CartReminderSettings = {
  enabled: true,
  delayMinutes: 60,
  secondReminder: false,
  codePercent: 0,
  codeDays: 3,
};

/** The shopper's answer on the account page or at checkout (signed in). */
export const marketingConsentSchema = z
  .object({ consented: z.boolean(), where: z.enum(["checkout", "account"]) })
  .strict();

export type MarketingConsent = { consented: boolean; since: string | null; source: string | null };

export type WhatsAppConsent = MarketingConsent & { mobile: string };

/** An account's answers: by e-mail, and on WhatsApp for the number it last answered for (null: never asked). */
export type AccountMarketingConsent = MarketingConsent & { whatsapp: WhatsAppConsent | null };

export type CartReminderDay = {
  date: string;
  leftBehind: number;
  reminded: number;
  /** Reminders by e-mail (one or two per cart). */
  remindersSent: number;
  /** Reminders on WhatsApp (at most one per cart). */
  whatsappSent: number;
  wonBack: number;
  revenuePaise: Paise;
};

export type CartReminderReport = {
  period: { from: string; to: string };
  totals: Omit<CartReminderDay, "date">;
  /** Of the carts left behind, why those not reminded were not. */
  notReminded: { noConsent: number; unsubscribed: number; other: number };
  days: CartReminderDay[];
  settings: CartReminderSettings;
};
