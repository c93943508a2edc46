import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { MINUTE_MS, requireAllowance } from "./throttle.ts";

export type AccountAction = "question" | "review";

type Rule = { max: number; minutes: number };

/** How much one account may do (docs/decisions/019): a burst limit and a daily one. */
export const ACCOUNT_LIMITS: Record<AccountAction, { done: string; noun: string; rules: Rule[] }> = {
  question: {
    done: "asked",
    noun: "questions",
    rules: [
      { max: 5, minutes: 10 },
      { max: 20, minutes: 24 * 60 },
    ],
  },
  review: {
    done: "written",
    noun: "reviews",
    rules: [
      { max: 5, minutes: 10 },
      { max: 20, minutes: 24 * 60 },
    ],
  },
};

function describeMinutes(minutes: number) {
  if (minutes < 120) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/**
 * Makes the account's other requests for this action wait until the caller's transaction ends, for work that
 * must see their outcome before its allowance is counted (a second review of the same product).
 */
export async function queueAccountAction(tx: Tx, userId: string, action: AccountAction) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`account:${action}:${userId}`}, 0))`);
}

/** The throttle key of one of an account's limits on an action (server/throttles/throttle.ts). */
export const accountAllowanceKey = (userId: string, action: AccountAction, rule: Rule) =>
  `account:${action}:${rule.minutes}:${userId}`;

/**
 * Counts one action of the account against each of its limits, inside the caller's transaction, or throws a
 * 429 saying when to try again. The counts are kept only if the caller's transaction commits, and requests of
 * one account for one action queue on them, so of many sent at once exactly the allowed number pass.
 */
export async function takeAccountAllowance(tx: Tx, userId: string, action: AccountAction) {
  const { done, noun, rules } = ACCOUNT_LIMITS[action];
  for (const rule of rules) {
    await requireAllowance(
      tx,
      accountAllowanceKey(userId, action, rule),
      rule.max,
      rule.minutes * MINUTE_MS,
      (wait) => ({
        code: `too_many_${noun}`,
        message:
          `You have ${done} ${rule.max} ${noun} in the last ${describeMinutes(rule.minutes)}. ` +
          `Please try again in ${describeMinutes(Math.ceil(wait / 60))}.`,
      }),
    );
  }
}
