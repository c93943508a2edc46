import { createHmac, timingSafeEqual } from "node:crypto";
import { APIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import { MOBILE_CODE_TRIES } from "../../common/mobile-sign-in.ts";
import type { Db } from "../db/client.ts";

/**
 * Where Better Auth's phone-number plugin keeps a number's code: a `verifications` row under this identifier
 * (stored hashed: auth.ts), whose value is `<code>:<wrong tries>`. The shop replaces `<code>` by its HMAC
 * before the row is written and checks codes itself (verifyMobileCode), because the plugin stores the code
 * in the clear and counts tries by reading, deleting and re-writing the row.
 */
export const mobileCodeIdentifier = (phoneNumber: string) => `phone-number-otp-${phoneNumber}`;

/** Keyed by the auth secret, so a leaked table does not give the codes away to a million guesses. */
function hashCode(secret: string, identifier: string, code: string): string {
  return createHmac("sha256", secret).update(`${identifier}:${code}`).digest("base64url");
}

/** For Better Auth's `verification.create.before` hook: the row the plugin writes, with the code hashed. */
export function withHashedCode(secret: string, row: { identifier: string; value: string }) {
  const [code = "", tries = "0"] = row.value.split(":");
  return { ...row, value: `${hashCode(secret, row.identifier, code)}:${tries}` };
}

const refuse = (status: "BAD_REQUEST" | "FORBIDDEN", code: string, message: string) =>
  new APIError(status, { code, message });

/**
 * Checks a code against the number's latest one. Each check first counts a try, in one conditional update
 * (so of many checks at once no more than MOBILE_CODE_TRIES are counted, whichever instance takes them);
 * past that, or past its expiry, the code is refused whatever is typed. A right code is deleted by the check
 * that uses it: it signs in once.
 */
export async function verifyMobileCode(
  db: Db,
  secret: string,
  row: { id: string; identifier: string } | null,
  code: string,
): Promise<true> {
  if (!row)
    throw refuse("BAD_REQUEST", "OTP_NOT_FOUND", "There is no code for this number. Ask for a new one.");
  const counted = await db.execute<{ hash: string }>(sql`
    update verifications
       set value = split_part(value, ':', 1) || ':' || (split_part(value, ':', 2)::int + 1), updated_at = now()
     where id = ${row.id} and expires_at > now() and split_part(value, ':', 2)::int < ${MOBILE_CODE_TRIES}
    returning split_part(value, ':', 1) as hash`);
  const stored = counted.rows[0]?.hash;
  if (stored === undefined) {
    const left = await db.execute<{ expired: boolean }>(
      sql`select expires_at <= now() as expired from verifications where id = ${row.id}`,
    );
    const state = left.rows[0];
    if (!state) throw refuse("BAD_REQUEST", "OTP_NOT_FOUND", "This code has been used. Ask for a new one.");
    if (state.expired)
      throw refuse("BAD_REQUEST", "OTP_EXPIRED", "This code has expired. Ask for a new one.");
    throw refuse(
      "FORBIDDEN",
      "TOO_MANY_ATTEMPTS",
      `This code was tried ${MOBILE_CODE_TRIES} times and no longer works. Ask for a new one.`,
    );
  }
  const expected = Buffer.from(stored);
  const given = Buffer.from(hashCode(secret, row.identifier, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw refuse("BAD_REQUEST", "INVALID_OTP", "That code is not right. Check the SMS and try again.");
  }
  const used = await db.execute(sql`delete from verifications where id = ${row.id} returning id`);
  if (used.rows.length === 0)
    throw refuse("BAD_REQUEST", "OTP_NOT_FOUND", "This code has been used. Ask for a new one.");
  return true;
}
