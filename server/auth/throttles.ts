import { and, eq, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { authThrottles } from "../db/schema.ts";
import type { Env } from "../env.ts";
import {
  MINUTE_MS,
  secondsUntil,
  type ThrottleDecision,
  takeAllowance,
  throttleKey,
} from "../throttles/throttle.ts";

/** The e-mails one address can be sent; each kind has its own allowance. */
export type MailKind = "sign-in-link" | "reset" | "confirm";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Password sign-in is the one throttle that is not a count in a window (server/throttles/throttle.ts): it
 * slows an address down and then locks it, in the same table.
 *
 * Takes one password attempt for an address, in one statement so that attempts arriving at once are
 * counted one by one: the first AUTH_ACCOUNT_SLOW_AFTER go through at once, each further one only after
 * 1 s, 2 s, 4 s ... since the previous one, and none while the address is locked. Attempts are counted
 * when they start; a right password clears them (`clearSignInAttempts`).
 */
export async function takeSignInAttempt(db: Db, env: Env, email: string): Promise<ThrottleDecision> {
  const key = throttleKey(`sign-in:${normaliseEmail(email)}`);
  const slowAfter = env.AUTH_ACCOUNT_SLOW_AFTER;
  // A lock that has run out, or attempts older than a lock would last, are forgotten: counting starts over.
  const startsOver = sql`(${authThrottles.lockedUntil} is not null or ${authThrottles.lastAttemptAt} < now() - make_interval(mins => ${env.AUTH_ACCOUNT_LOCK_MINUTES}))`;
  const taken = await db
    .insert(authThrottles)
    .values({ key, count: 1, windowStartedAt: sql`now()`, lastAttemptAt: sql`now()` })
    .onConflictDoUpdate({
      target: authThrottles.key,
      set: {
        count: sql`case when ${startsOver} then 1 else ${authThrottles.count} + 1 end`,
        windowStartedAt: sql`case when ${startsOver} then now() else ${authThrottles.windowStartedAt} end`,
        lastAttemptAt: sql`now()`,
        lockedUntil: null,
      },
      setWhere: sql`(${authThrottles.lockedUntil} is null or ${authThrottles.lockedUntil} <= now())
        and (${startsOver} or ${authThrottles.count} < ${slowAfter}
          or ${authThrottles.lastAttemptAt} + make_interval(secs => power(2, ${authThrottles.count} - ${slowAfter})) <= now())`,
    })
    .returning({ count: authThrottles.count });
  if (taken.length > 0) return { allowed: true };

  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, key));
  if (!row) return { allowed: true };
  if (row.lockedUntil && row.lockedUntil.getTime() > Date.now()) {
    return { allowed: false, retryAfterSeconds: secondsUntil(row.lockedUntil) };
  }
  const wait = 2 ** Math.max(0, row.count - slowAfter) * 1000;
  return { allowed: false, retryAfterSeconds: secondsUntil(new Date(row.lastAttemptAt.getTime() + wait)) };
}

/** The right password: the address starts with a clean slate. */
export async function clearSignInAttempts(db: Db, email: string) {
  await db
    .delete(authThrottles)
    .where(eq(authThrottles.key, throttleKey(`sign-in:${normaliseEmail(email)}`)));
}

/**
 * After a wrong password: once AUTH_ACCOUNT_LOCK_AFTER attempts have failed, password sign-in for the
 * address is locked for AUTH_ACCOUNT_LOCK_MINUTES. True only for the request that set the lock, so the
 * owner is told once per lock.
 */
export async function lockAfterFailure(db: Db, env: Env, email: string): Promise<boolean> {
  const locked = await db
    .update(authThrottles)
    .set({ lockedUntil: sql`now() + make_interval(mins => ${env.AUTH_ACCOUNT_LOCK_MINUTES})` })
    .where(
      and(
        eq(authThrottles.key, throttleKey(`sign-in:${normaliseEmail(email)}`)),
        gte(authThrottles.count, env.AUTH_ACCOUNT_LOCK_AFTER),
        isNull(authThrottles.lockedUntil),
      ),
    )
    .returning({ key: authThrottles.key });
  return locked.length > 0;
}

/**
 * Takes one e-mail of a kind for an address: AUTH_EMAIL_PER_ADDRESS per AUTH_EMAIL_PER_ADDRESS_MINUTES,
 * whichever client asks, so no one can fill a stranger's inbox by asking from many addresses.
 */
export function takeMailAllowance(
  db: Db,
  env: Env,
  kind: MailKind,
  email: string,
): Promise<ThrottleDecision> {
  return takeAllowance(
    db,
    `mail:${kind}:${normaliseEmail(email)}`,
    env.AUTH_EMAIL_PER_ADDRESS,
    env.AUTH_EMAIL_PER_ADDRESS_MINUTES * MINUTE_MS,
  );
}
