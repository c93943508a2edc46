import type { Paise } from "./money.ts";

/** The spec's messages, to the letter. */
export const DISCOUNT_MESSAGES = {
  invalid: "Invalid discount code",
  alreadyUsed: "This discount code has already been used",
} as const;

/** Beyond the spec: codes with a time window or a total limit, in words as plain as the spec's. */
export const DISCOUNT_LIMIT_MESSAGES = {
  notStarted: "This code is not active yet",
  expired: "This code has expired",
  limitReached: "This code has reached its limit",
} as const;

export type DiscountCode = {
  code: string;
  /** Percent off, or 0 for a flat-amount code. */
  percent: number;
  /** Flat amount off, or 0 for a percent code. */
  amountOffPaise: Paise;
  description: string;
  active: boolean;
  minAmountPaise: Paise;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  timesUsed: number;
  /** Uses one customer may make; 1 as the spec's codes, null for no limit. */
  usesPerCustomer: number | null;
  /** The one shopper's e-mail a cart reminder's code is kept for (docs/decisions/089); absent or null: anyone's. */
  reservedFor?: string | null;
};

/**
 * What pricing a cart needs of a code: its terms, and why it takes nothing off for this shopper now (switched
 * off, outside its window, its uses spent), in the words the order would be refused with.
 */
export type PricedCode = Pick<
  DiscountCode,
  "code" | "percent" | "amountOffPaise" | "description" | "active" | "minAmountPaise"
> & { problem?: string | null };

/** A code with no window and no total limit, used once per customer, as the spec's codes are. */
export const UNLIMITED = {
  startsAt: null,
  endsAt: null,
  maxUses: null,
  timesUsed: 0,
  usesPerCustomer: 1,
} as const;

/**
 * The refusal once a customer has used all their uses of a code: the spec's words for a code used once
 * each, and the number for a code that allows more.
 */
export function usedUpMessage(usesPerCustomer: number | null): string {
  if (usesPerCustomer === null || usesPerCustomer <= 1) return DISCOUNT_MESSAGES.alreadyUsed;
  return `This code can be used ${usesPerCustomer} times per customer, and you have used it ${usesPerCustomer} times`;
}

/**
 * Why an active code cannot be used right now, or null when it can: before its start, after its end, or
 * with its total uses spent. The total is decided for good when an order is placed; this is the early word.
 */
export function codeUnavailable(
  code: Pick<DiscountCode, "startsAt" | "endsAt" | "maxUses" | "timesUsed">,
  now: Date,
): string | null {
  if (code.startsAt && now < code.startsAt) return DISCOUNT_LIMIT_MESSAGES.notStarted;
  if (code.endsAt && now >= code.endsAt) return DISCOUNT_LIMIT_MESSAGES.expired;
  if (code.maxUses !== null && code.timesUsed >= code.maxUses) return DISCOUNT_LIMIT_MESSAGES.limitReached;
  return null;
}

/** Codes are case-insensitive: stored and compared upper-cased. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

export const appliedMessage = (description: string) => `${description} applied successfully!`;

export type DiscountCheck = { ok: true; code: DiscountCode } | { ok: false; message: string; usedUp?: true };

/**
 * Spec 5: unknown or inactive is invalid; a code in the used list is refused. In that order, with the
 * window and the total limit checked between the two. The browser's used list says only that a code was
 * applied, not how often, so it refuses only codes of one use per customer; the uses of the others are
 * counted by the server when the order is placed.
 */
export function checkDiscountCode(
  entered: string,
  known: readonly DiscountCode[],
  usedCodes: readonly string[],
  now: Date = new Date(),
): DiscountCheck {
  const wanted = normalizeCode(entered);
  const code = known.find((candidate) => candidate.code === wanted && candidate.active);
  if (!code) return { ok: false, message: DISCOUNT_MESSAGES.invalid };
  const unavailable = codeUnavailable(code, now);
  if (unavailable) return { ok: false, message: unavailable };
  if (code.usesPerCustomer === 1 && usedCodes.map(normalizeCode).includes(wanted))
    return { ok: false, message: DISCOUNT_MESSAGES.alreadyUsed, usedUp: true };
  return { ok: true, code };
}

/**
 * Spec 5: zero below the code's minimum; otherwise amount × percent ÷ 100, rounded to the nearest
 * whole rupee (halves round up). A flat-amount code takes its amount off, never more than the subtotal.
 */
export function discountAmount(
  subtotal: Paise,
  code: Pick<DiscountCode, "percent" | "minAmountPaise"> & { amountOffPaise?: Paise },
): Paise {
  if (subtotal < code.minAmountPaise) return 0;
  if (code.amountOffPaise) return Math.min(code.amountOffPaise, subtotal);
  return Math.round((subtotal * code.percent) / 100 / 100) * 100;
}

/** How much more the shopper must add before the code gives anything; 0 once it applies. */
export function shortfallForCode(subtotal: Paise, code: Pick<DiscountCode, "minAmountPaise">): Paise {
  return Math.max(0, code.minAmountPaise - subtotal);
}

/** A code as it stands for one shopper now, before it is priced against a cart. */
export type CodeStanding = {
  active: boolean;
  /** Why the code cannot be used now (its window or total limit), or null. */
  unavailable: string | null;
  /** The shopper's uses of this code all went to orders already. */
  spent: boolean;
  usesPerCustomer: number | null;
};

/** Why a code cannot be used on this order, in the words the cart shows and Place order refuses it with. */
export function discountProblemOf(standing: CodeStanding): string | null {
  if (!standing.active) return DISCOUNT_MESSAGES.invalid;
  if (standing.unavailable) return standing.unavailable;
  if (standing.spent) return usedUpMessage(standing.usesPerCustomer);
  return null;
}
