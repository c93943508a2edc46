import { and, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { accountActions } from "../db/schema.ts";
import { tooManyRequests } from "../errors.ts";

export type AccountAction = (typeof accountActions.$inferInsert)["action"];

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
 * Makes the account's other requests for this action wait until the caller's transaction ends; taken again
 * by takeAccountAllowance, which is harmless (the lock is held once more until the same end).
 */
export async function queueAccountAction(tx: Tx, userId: string, action: AccountAction) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`account:${action}:${userId}`}, 0))`);
}

/**
 * Counts one action of the account, inside the caller's transaction, or throws a 429 saying when to try
 * again. Requests of one account for one action queue on an advisory lock, so of many sent at once exactly
 * the allowed number pass; the row is only kept if the caller's transaction commits.
 */
export async function takeAccountAllowance(tx: Tx, userId: string, action: AccountAction) {
  const { done, noun, rules } = ACCOUNT_LIMITS[action];
  const longest = Math.max(...rules.map((rule) => rule.minutes));
  await queueAccountAction(tx, userId, action);
  // The time now, after the queue: not now(), this transaction's start, which may be earlier than the rows
  // of the requests it queued behind, and would put their "try again" past the window's length.
  const clock = await tx.execute<{ now_ms: number }>(
    sql`select extract(epoch from clock_timestamp())::float8 * 1000 as now_ms`,
  );
  const nowMs = Number(clock.rows[0]?.now_ms);
  const mine = and(eq(accountActions.userId, userId), eq(accountActions.action, action));
  const recent = await tx
    .select({ at: accountActions.createdAt })
    .from(accountActions)
    .where(and(mine, gt(accountActions.createdAt, sql`now() - make_interval(mins => ${longest})`)))
    .orderBy(desc(accountActions.createdAt));

  for (const rule of rules) {
    const windowMs = rule.minutes * 60_000;
    const inWindow = recent.filter((row) => row.at.getTime() > nowMs - windowMs);
    const oldestCounted = inWindow[rule.max - 1];
    if (oldestCounted) {
      // The next one is allowed once the oldest of the last `max` leaves the window.
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((oldestCounted.at.getTime() + windowMs - nowMs) / 1000),
      );
      throw tooManyRequests(
        `too_many_${noun}`,
        `You have ${done} ${rule.max} ${noun} in the last ${describeMinutes(rule.minutes)}. ` +
          `Please try again in ${describeMinutes(Math.ceil(retryAfterSeconds / 60))}.`,
        retryAfterSeconds,
      );
    }
  }

  await tx.insert(accountActions).values({ userId, action });
  await tx
    .delete(accountActions)
    .where(and(mine, lte(accountActions.createdAt, sql`now() - make_interval(mins => ${longest})`)));
}
