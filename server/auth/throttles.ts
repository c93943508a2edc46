import { createHash } from "node:crypto";
import { and, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { authThrottles } from "../db/schema.ts";
import type { Env } from "../env.ts";

/** What a throttle decided: go ahead, or wait this many seconds (at least 1). */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The e-mails one address can be sent; each kind has its own allowance. */
export type MailKind = "sign-in-link" | "reset" | "confirm";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Hashed, so the table keeps no list of the addresses strangers typed in. */
function throttleKey(kind: string, email: string): string {
  return createHash("sha256")
    .update(`${kind}:${normaliseEmail(email)}`)
    .digest("hex");
}

const secondsUntil = (moment: Date) => Math.max(1, Math.ceil((moment.getTime() - Date.now()) / 1000));

/**
 * Takes one password attempt for an address, in one statement so that attempts arriving at once are
 * counted one by one: the first AUTH_ACCOUNT_SLOW_AFTER go through at once, each further one only after
 * 1 s, 2 s, 4 s ... since the previous one, and none while the address is locked. Attempts are counted
 * when they start; a right password clears them (`clearSignInAttempts`).
 */
export async function takeSignInAttempt(db: Db, env: Env, email: string): Promise<ThrottleDecision> {
  const key = throttleKey("sign-in", email);
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
  await db.delete(authThrottles).where(eq(authThrottles.key, throttleKey("sign-in", email)));
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
        eq(authThrottles.key, throttleKey("sign-in", email)),
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
    `mail:${kind}`,
    email,
    env.AUTH_EMAIL_PER_ADDRESS,
    env.AUTH_EMAIL_PER_ADDRESS_MINUTES,
  );
}

/**
 * Takes one of `max` uses per `minutes` of something for one subject (an e-mail address, a mobile number, a
 * client address), counted in one conditional upsert so that requests arriving at once, at any instance,
 * are counted one by one.
 */
export async function takeAllowance(
  db: Db,
  kind: string,
  subject: string,
  max: number,
  minutes: number,
): Promise<ThrottleDecision> {
  const key = throttleKey(kind, subject);
  const windowOver = sql`${authThrottles.windowStartedAt} <= now() - make_interval(mins => ${minutes})`;
  const taken = await db
    .insert(authThrottles)
    .values({ key, count: 1, windowStartedAt: sql`now()`, lastAttemptAt: sql`now()` })
    .onConflictDoUpdate({
      target: authThrottles.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${authThrottles.count} + 1 end`,
        windowStartedAt: sql`case when ${windowOver} then now() else ${authThrottles.windowStartedAt} end`,
        lastAttemptAt: sql`now()`,
      },
      setWhere: sql`${windowOver} or ${authThrottles.count} < ${max}`,
    })
    .returning({ count: authThrottles.count });
  if (taken.length > 0) return { allowed: true };
  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, key));
  if (!row) return { allowed: true };
  const windowEnds = row.windowStartedAt.getTime() + minutes * 60_000;
  return { allowed: false, retryAfterSeconds: secondsUntil(new Date(windowEnds)) };
}

/** Rows nothing will read again: no lock running and no attempt for a day. */
export async function forgetOldThrottles(db: Db) {
  await db
    .delete(authThrottles)
    .where(
      and(
        lt(authThrottles.lastAttemptAt, sql`now() - interval '1 day'`),
        or(isNull(authThrottles.lockedUntil), lt(authThrottles.lockedUntil, sql`now()`)),
      ),
    );
}
