import type { Paise } from "./money.ts";

/** The spec's messages, to the letter. */
export const DISCOUNT_MESSAGES = {
  invalid: "Invalid discount code",
  alreadyUsed: "This discount code has already been used",
} as const;

export type DiscountCode = {
  code: string;
  percent: number;
  description: string;
  active: boolean;
  minAmountPaise: Paise;
};

/** Codes are case-insensitive: stored and compared upper-cased. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

export const appliedMessage = (description: string) => `${description} applied successfully!`;

export type DiscountCheck = { ok: true; code: DiscountCode } | { ok: false; message: string };

/** Spec 5: unknown or inactive is invalid; a code in the used list is refused. In that order. */
export function checkDiscountCode(
  entered: string,
  known: readonly DiscountCode[],
  usedCodes: readonly string[],
): DiscountCheck {
  const wanted = normalizeCode(entered);
  const code = known.find((candidate) => candidate.code === wanted && candidate.active);
  if (!code) return { ok: false, message: DISCOUNT_MESSAGES.invalid };
  if (usedCodes.map(normalizeCode).includes(wanted))
    return { ok: false, message: DISCOUNT_MESSAGES.alreadyUsed };
  return { ok: true, code };
}

/**
 * Spec 5: zero below the code's minimum; otherwise amount × percent ÷ 100, rounded to the nearest
 * whole rupee (halves round up).
 */
export function discountAmount(
  subtotal: Paise,
  code: Pick<DiscountCode, "percent" | "minAmountPaise">,
): Paise {
  if (subtotal < code.minAmountPaise) return 0;
  return Math.round((subtotal * code.percent) / 100 / 100) * 100;
}

/** How much more the shopper must add before the code gives anything; 0 once it applies. */
export function shortfallForCode(subtotal: Paise, code: Pick<DiscountCode, "minAmountPaise">): Paise {
  return Math.max(0, code.minAmountPaise - subtotal);
}
