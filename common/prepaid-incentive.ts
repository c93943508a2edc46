import { z } from "zod";
import { formatRupees, type Paise } from "./money.ts";

/**
 * The owner's reward for paying online instead of in cash (issue 29, docs/decisions/072): nothing, a
 * discount (a percentage, optionally capped, or a flat amount), or free shipping. It is priced by
 * common/cart.ts summarizeCart like everything else, with the way the shopper pays as an input.
 */
export type PrepaidIncentive =
  | { kind: "none" }
  | { kind: "percent"; percent: number; capPaise: Paise | null }
  | { kind: "flat"; amountPaise: Paise }
  | { kind: "free_shipping" };

export const NO_PREPAID_INCENTIVE: PrepaidIncentive = { kind: "none" };

export type PaymentChoice = "cod" | "razorpay";

/** What the incentive took off an order paid online: goods' value, or the shipping fee it waived. */
export type PrepaidSaving = { kind: "discount" | "free_shipping"; amountPaise: Paise };

/** The summary's line for the saving, e.g. "Paying online" −₹50 or "Free shipping". */
export const PREPAID_LINE_LABEL = "Paying online";

/**
 * What the incentive takes off goods worth `valuePaise` (after any discount code): a percentage rounds to
 * the nearest whole rupee as discount codes do (spec 5), then the cap; never more than the goods are worth.
 */
export function prepaidDiscountOn(valuePaise: Paise, incentive: PrepaidIncentive): Paise {
  if (valuePaise <= 0) return 0;
  if (incentive.kind === "flat") return Math.min(incentive.amountPaise, valuePaise);
  if (incentive.kind !== "percent") return 0;
  const rounded = Math.round((valuePaise * incentive.percent) / 100 / 100) * 100;
  return Math.min(rounded, incentive.capPaise ?? rounded, valuePaise);
}

/** The owner's incentive in a few words, for the COD rules screen and the audit. */
export function describePrepaidIncentive(incentive: PrepaidIncentive): string {
  switch (incentive.kind) {
    case "none":
      return "No reward for paying online";
    case "percent":
      return `${incentive.percent}% off for paying online${incentive.capPaise === null ? "" : `, at most ${formatRupees(incentive.capPaise)}`}`;
    case "flat":
      return `${formatRupees(incentive.amountPaise)} off for paying online`;
    case "free_shipping":
      return "Free shipping for paying online";
  }
}

/** The words under "Pay online" at checkout, from what this order saves that way (0: nothing to say). */
export function prepaidOffer(incentive: PrepaidIncentive, savingPaise: Paise): string | null {
  if (savingPaise <= 0) return null;
  return incentive.kind === "free_shipping"
    ? `Free shipping when you pay online: save ${formatRupees(savingPaise)}.`
    : `Save ${formatRupees(savingPaise)} when you pay online.`;
}

const paise = z.number().int("must be whole paise").max(100_000_000, "is too large");

/** What the owner sends (PUT /api/admin/cod-rules/prepaid-incentive). */
export const prepaidIncentiveSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("none") }).strict(),
    z
      .object({
        kind: z.literal("percent"),
        percent: z
          .number()
          .int("must be a whole number")
          .min(1, "must be 1 or more")
          .max(50, "must be at most 50"),
        capPaise: paise.min(100, "must be at least ₹1").nullable(),
      })
      .strict(),
    z.object({ kind: z.literal("flat"), amountPaise: paise.min(100, "must be at least ₹1") }).strict(),
    z.object({ kind: z.literal("free_shipping") }).strict(),
  ],
  { error: "kind: must be none, percent, flat or free_shipping" },
);
