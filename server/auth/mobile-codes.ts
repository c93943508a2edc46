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

/**
 * The one refusal of a code, whatever the reason: no code pending, wrong, expired, used, or tried too often.
 * Telling them apart would tell anyone typing a stranger's number whether a code is waiting for it (someone
 * is signing in now); the shopper's next step is the same in every case.
 */
const wrongCode = () =>
  new APIError("BAD_REQUEST", {
    code: "INVALID_OTP",
    message: "That code is not right or no longer works. Check the SMS, or ask for a new code.",
  });

/**
 * Checks a code against the number's latest one. Each check first counts a try, in one conditional update
 * (so of many checks at once no more than MOBILE_CODE_TRIES are counted, whichever instance takes them);
 * past that, or past its expiry, the code is refused whatever is typed. A right code is deleted by the check
 * that uses it: it signs in once. A number without a code runs the same statement (matching nothing), so
 * its answer takes as long as a wrong code's.
 */
export async function verifyMobileCode(
  db: Db,
  secret: string,
  row: { id: string; identifier: string } | null,
  code: string,
): Promise<true> {
  const counted = await db.execute<{ hash: string }>(sql`
    update verifications
       set value = split_part(value, ':', 1) || ':' || (split_part(value, ':', 2)::int + 1), updated_at = now()
     where id = ${row?.id ?? ""} and expires_at > now() and split_part(value, ':', 2)::int < ${MOBILE_CODE_TRIES}
    returning split_part(value, ':', 1) as hash`);
  const stored = counted.rows[0]?.hash;
  const expected = Buffer.from(stored ?? "");
  const given = Buffer.from(hashCode(secret, row?.identifier ?? "", code));
  if (!row || stored === undefined || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw wrongCode();
  }
  const used = await db.execute(sql`delete from verifications where id = ${row.id} returning id`);
  if (used.rows.length === 0) throw wrongCode();
  return true;
}
