import { and, desc, eq, type SQL } from "drizzle-orm";
import type { MarketingConsent } from "../../common/cart-reminders.ts";
import type { DbOrTx } from "../db/client.ts";
import { type CONSENT_SOURCES, marketingConsents } from "../db/schema.ts";

/**
 * Marketing mail needs the shopper's own yes (docs/decisions/089): every yes and no is a row, with when and
 * where it was given, and the latest one for an address is the answer that stands.
 */
export function consentOf(db: Pick<DbOrTx, "select">, email: string): Promise<MarketingConsent> {
  return latestAnswer(
    db,
    and(eq(marketingConsents.channel, "email"), eq(marketingConsents.email, email.toLowerCase())),
  );
}

/** The latest answer among the rows matched (no row: never asked, so no). */
async function latestAnswer(db: Pick<DbOrTx, "select">, where: SQL | undefined): Promise<MarketingConsent> {
  const [row] = await db
    .select({
      consented: marketingConsents.consented,
      createdAt: marketingConsents.createdAt,
      source: marketingConsents.source,
    })
    .from(marketingConsents)
    .where(where)
    .orderBy(desc(marketingConsents.createdAt))
    .limit(1);
  return {
    consented: row?.consented ?? false,
    since: row?.createdAt.toISOString() ?? null,
    source: row?.source ?? null,
  };
}

/** Records an answer; the same answer again is not recorded twice (its first time is the one that counts). */
export async function recordConsent(
  db: DbOrTx,
  answer: {
    email: string;
    userId: string | null;
    consented: boolean;
    source: (typeof CONSENT_SOURCES)[number];
  },
): Promise<MarketingConsent> {
  const email = answer.email.toLowerCase();
  const standing = await consentOf(db, email);
  if (standing.source !== null && standing.consented === answer.consented) return standing;
  const [row] = await db
    .insert(marketingConsents)
    .values({ ...answer, channel: "email", email })
    .returning({ createdAt: marketingConsents.createdAt });
  return {
    consented: answer.consented,
    since: row?.createdAt.toISOString() ?? null,
    source: answer.source,
  };
}

/** A mobile as the WhatsApp consent keeps it: its last ten digits. */
const tenDigits = (mobile: string) => mobile.replace(/\D/g, "").slice(-10);

/**
 * The standing answer to cart reminders and offers on WhatsApp for a number (docs/decisions/096): a channel of
 * its own, since a yes to e-mail is no yes to WhatsApp; the number is the one the shopper ticked it for.
 */
export async function whatsAppConsentOf(
  db: Pick<DbOrTx, "select">,
  mobile: string,
): Promise<MarketingConsent & { mobile: string }> {
  const number = tenDigits(mobile);
  const answer = await latestAnswer(
    db,
    and(eq(marketingConsents.channel, "whatsapp"), eq(marketingConsents.mobile, number)),
  );
  return { ...answer, mobile: number };
}

/** The number an account last answered for on WhatsApp, and the answer standing for it; null if never asked. */
export async function accountWhatsAppConsent(db: Pick<DbOrTx, "select">, userId: string) {
  const [row] = await db
    .select({ mobile: marketingConsents.mobile })
    .from(marketingConsents)
    .where(and(eq(marketingConsents.channel, "whatsapp"), eq(marketingConsents.userId, userId)))
    .orderBy(desc(marketingConsents.createdAt))
    .limit(1);
  return row?.mobile ? whatsAppConsentOf(db, row.mobile) : null;
}

/** Records a yes or no to WhatsApp for a number; the same answer again is not recorded twice. */
export async function recordWhatsAppConsent(
  db: DbOrTx,
  answer: {
    mobile: string;
    userId: string | null;
    consented: boolean;
    source: (typeof CONSENT_SOURCES)[number];
  },
): Promise<MarketingConsent & { mobile: string }> {
  const mobile = tenDigits(answer.mobile);
  const standing = await whatsAppConsentOf(db, mobile);
  // An account that answers again for the same number is recorded again, so the number is found as its own.
  if (standing.source !== null && standing.consented === answer.consented && answer.userId === null) {
    return standing;
  }
  const [row] = await db
    .insert(marketingConsents)
    .values({ ...answer, channel: "whatsapp", mobile, email: null })
    .returning({ createdAt: marketingConsents.createdAt });
  return {
    consented: answer.consented,
    since: row?.createdAt.toISOString() ?? null,
    source: answer.source,
    mobile,
  };
}
