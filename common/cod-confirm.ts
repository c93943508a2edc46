import { z } from "zod";
import type { PrepaidSaving } from "./prepaid-incentive.ts";
import { plainText } from "./schemas/text.ts";

/**
 * Confirming a cash-on-delivery order before it is packed (issue 29, docs/decisions/065): what the shopper's
 * one-tap link shows, the staff's "to confirm" list, and the owner's setting.
 */

/** The confirmation link's token (`?token=`): 43 base64url characters of an HMAC. */
export const codConfirmTokenSchema = z
  .object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "is not a confirmation link") })
  .strict();

/** The shopper's choice on the link's page; actions take no body beyond `{}`. */
export const codConfirmActionSchema = z.object({}).strict();

/** Where the order stands for its shopper, as the link's page shows it. */
export type CodConfirmState =
  /** Waiting for the shopper: Confirm and Cancel are offered. */
  | "waiting"
  /** Confirmed (by the shopper, by staff, or paid online): it goes to packing. */
  | "confirmed"
  | "cancelled"
  /** Packed, shipped or later: nothing left to confirm. */
  | "under_way";

export type CodConfirmPage = {
  number: string;
  state: CodConfirmState;
  statusLabel: string;
  paymentMethod: "cod" | "razorpay";
  totalPaise: number;
  placedAt: string;
  /** When the shop cancels it if still unconfirmed; null once it no longer waits. */
  confirmBy: string | null;
  lines: { name: string; quantity: number; lineTotalPaise: number }[];
  address: { name: string; city: string; state: string; pin: string };
  /**
   * "Pay online instead" (docs/decisions/072): the amount due paid online and what that saves (the owner's
   * prepaid incentive); null when the order no longer waits or online payment is off.
   */
  payOnline: { totalPaise: number; savingPaise: number } | null;
  /** What paying online saved, once the order was paid that way. */
  prepaid: PrepaidSaving | null;
};

/** One order on the staff's "to confirm" list: what a call needs. */
export type ToConfirmRow = {
  number: string;
  placedAt: string;
  confirmBy: string;
  name: string;
  /** The 10-digit mobile, for a tel: link. */
  phone: string;
  city: string;
  state: string;
  pin: string;
  totalPaise: number;
  items: number;
  /** The shopper opened "pay online instead" then and may be paying: staff wait before changing the order. */
  payingOnlineSince: string | null;
  /**
   * What became of the question on WhatsApp, as Meta's webhook last reported it (null: not sent there);
   * `neverReached` when it failed and no SMS can carry it: the shopper was not asked, so silence is no answer.
   */
  whatsapp: { status: "accepted" | "sent" | "delivered" | "read" | "failed"; error: string | null } | null;
  neverReached: boolean;
};

export type ToConfirmList = { orders: ToConfirmRow[]; confirmHours: number; canChangeHours: boolean };

export const CONFIRM_HOURS_MAX = 720;

export const codConfirmSettingsSchema = z
  .object({
    confirmHours: z
      .number({ error: "Enter a whole number of hours" })
      .int("Enter a whole number of hours")
      .min(1, "At least 1 hour")
      .max(CONFIRM_HOURS_MAX, `At most ${CONFIRM_HOURS_MAX} hours (30 days)`),
  })
  .strict();

export type CodConfirmSettings = z.infer<typeof codConfirmSettingsSchema>;

/** A staff member's cancellation from the list: the reason is kept in the order's history. */
export const staffCancelSchema = z
  .object({ reason: plainText({ multiline: true }).trim().max(200, "At most 200 characters").optional() })
  .strict();
