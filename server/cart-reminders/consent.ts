import { desc, eq } from "drizzle-orm";
import type { MarketingConsent } from "../../common/cart-reminders.ts";
import type { DbOrTx } from "../db/client.ts";
import { type CONSENT_SOURCES, marketingConsents } from "../db/schema.ts";

/**
 * Marketing mail needs the shopper's own yes (docs/decisions/089): every yes and no is a row, with when and
 * where it was given, and the latest one for an address is the answer that stands.
 */
export async function consentOf(db: Pick<DbOrTx, "select">, email: string): Promise<MarketingConsent> {
  const [row] = await db
    .select({
      consented: marketingConsents.consented,
      createdAt: marketingConsents.createdAt,
      source: marketingConsents.source,
    })
    .from(marketingConsents)
    .where(eq(marketingConsents.email, email.toLowerCase()))
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
    .values({ ...answer, email })
    .returning({ createdAt: marketingConsents.createdAt });
  return {
    consented: answer.consented,
    since: row?.createdAt.toISOString() ?? null,
    source: answer.source,
  };
}
