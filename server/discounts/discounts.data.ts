import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DiscountCode } from "../../common/discount.ts";
import type { Db } from "../db/client.ts";
import { discountCodes, discountUses } from "../db/schema.ts";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

const codeColumns = {
  code: discountCodes.code,
  percent: discountCodes.percent,
  amountOffPaise: discountCodes.amountOffPaise,
  description: discountCodes.description,
  active: discountCodes.active,
  minAmountPaise: discountCodes.minAmountPaise,
  startsAt: discountCodes.startsAt,
  endsAt: discountCodes.endsAt,
  maxUses: discountCodes.maxUses,
  timesUsed: discountCodes.timesUsed,
};

/** A code as stored (active or not); codes are stored upper-cased, so pass a normalised one. */
export async function findDiscountCode(db: DbOrTx, code: string): Promise<DiscountCode | undefined> {
  const [row] = await db.select(codeColumns).from(discountCodes).where(eq(discountCodes.code, code));
  return row;
}

export async function findDiscountCodes(db: DbOrTx, codes: readonly string[]): Promise<DiscountCode[]> {
  if (codes.length === 0) return [];
  return db
    .select(codeColumns)
    .from(discountCodes)
    .where(inArray(discountCodes.code, [...codes]));
}

/**
 * Records that the account has used a code. The primary key (user, code) makes this the one place a
 * use is decided: of any number of simultaneous calls exactly one inserts, and only it gets true.
 */
export async function recordDiscountUse(db: DbOrTx, userId: string, code: string): Promise<boolean> {
  const inserted = await db
    .insert(discountUses)
    .values({ userId, code })
    .onConflictDoNothing()
    .returning({ code: discountUses.code });
  return inserted.length === 1;
}

/**
 * Spends one of the code's total uses for an order being placed. A single guarded UPDATE: concurrent
 * orders queue on the code's row and each sees the count the previous one left, so of any number at
 * once exactly as many succeed as there were uses left. False when none were.
 */
export async function claimCodeUse(tx: Tx, code: string): Promise<boolean> {
  const claimed = await tx
    .update(discountCodes)
    .set({ timesUsed: sql`${discountCodes.timesUsed} + 1` })
    .where(
      and(
        eq(discountCodes.code, code),
        or(isNull(discountCodes.maxUses), lt(discountCodes.timesUsed, discountCodes.maxUses)),
      ),
    )
    .returning({ code: discountCodes.code });
  return claimed.length === 1;
}
