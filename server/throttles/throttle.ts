import { createHash } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { authThrottles } from "../db/schema.ts";
import { tooManyRequests } from "../errors.ts";

/** What a throttle decided: go ahead, or wait this many seconds (at least 1). */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export const MINUTE_MS = 60_000;

/**
 * The row a throttle counts in: hashed, so the table keeps no list of the addresses, numbers and e-mails
 * strangers typed in; compared lower-cased, as e-mail addresses are.
 */
export function throttleKey(key: string): string {
  return createHash("sha256").update(key.trim().toLowerCase()).digest("hex");
}

export const secondsUntil = (moment: Date) => Math.max(1, Math.ceil((moment.getTime() - Date.now()) / 1000));

/**
 * The one throttle primitive: takes one of `limit` uses per `windowMs` for `key` (say `sms:number:+91...`),
 * counted in one conditional upsert so that requests arriving at once, at any instance, are counted one by
 * one. The window starts with the first use and the count starts over once it has passed. Inside a
 * transaction the use is counted only if that transaction commits, and others taking the same key wait for it.
 */
export async function takeAllowance(
  db: DbOrTx,
  key: string,
  limit: number,
  windowMs: number,
): Promise<ThrottleDecision> {
  const hashed = throttleKey(key);
  const windowOver = sql`${authThrottles.windowStartedAt} <= now() - make_interval(secs => ${windowMs / 1000})`;
  const taken = await db
    .insert(authThrottles)
    .values({ key: hashed, count: 1, windowStartedAt: sql`now()`, lastAttemptAt: sql`now()` })
    .onConflictDoUpdate({
      target: authThrottles.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${authThrottles.count} + 1 end`,
        windowStartedAt: sql`case when ${windowOver} then now() else ${authThrottles.windowStartedAt} end`,
        lastAttemptAt: sql`now()`,
      },
      setWhere: sql`${windowOver} or ${authThrottles.count} < ${limit}`,
    })
    .returning({ count: authThrottles.count });
  if (taken.length > 0) return { allowed: true };
  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, hashed));
  if (!row) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: secondsUntil(new Date(row.windowStartedAt.getTime() + windowMs)),
  };
}

/** takeAllowance for an API route: past the limit, a 429 with Retry-After and the caller's words. */
export async function requireAllowance(
  db: DbOrTx,
  key: string,
  limit: number,
  windowMs: number,
  refusal: (retryAfterSeconds: number) => { code: string; message: string },
): Promise<void> {
  const decision = await takeAllowance(db, key, limit, windowMs);
  if (decision.allowed) return;
  const { code, message } = refusal(decision.retryAfterSeconds);
  throw tooManyRequests(code, message, decision.retryAfterSeconds);
}

/** Rows nothing will read again: no lock running and no use for a day (the longest window). */
export async function forgetOldThrottles(db: DbOrTx) {
  await db
    .delete(authThrottles)
    .where(
      and(
        lt(authThrottles.lastAttemptAt, sql`now() - interval '1 day'`),
        or(isNull(authThrottles.lockedUntil), lt(authThrottles.lockedUntil, sql`now()`)),
      ),
    );
}
