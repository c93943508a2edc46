import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DiscountCode } from "../../common/discount.ts";
import type { DbOrTx, Tx } from "../db/client.ts";
import { discountCodes, discountUses, guestDiscountUses } from "../db/schema.ts";

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
  usesPerCustomer: discountCodes.usesPerCustomer,
  reservedFor: discountCodes.reservedFor,
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

/** Whose uses of a code are counted: an account, or one of a guest's contacts ("email:…", "mobile:…"). */
export type CodeCustomer = { userId: string } | { contact: string };

async function nextUseNumber(db: DbOrTx, customer: CodeCustomer, code: string): Promise<number> {
  const [row] =
    "userId" in customer
      ? await db
          .select({ last: sql<number>`coalesce(max(${discountUses.useNumber}), 0)::int` })
          .from(discountUses)
          .where(and(eq(discountUses.userId, customer.userId), eq(discountUses.code, code)))
      : await db
          .select({ last: sql<number>`coalesce(max(${guestDiscountUses.useNumber}), 0)::int` })
          .from(guestDiscountUses)
          .where(and(eq(guestDiscountUses.contact, customer.contact), eq(guestDiscountUses.code, code)));
  return (row?.last ?? 0) + 1;
}

/**
 * Takes one of the customer's uses of a code (decision 046), the one place a use is decided for accounts
 * and guests alike, when a code is applied and when an order is placed. Uses are numbered 1, 2, … per
 * customer and code, and the primary key holds the number: of simultaneous calls that pick the same number,
 * one inserts and the others wait for it to commit, find the number taken and try the next, so no customer
 * ever gets more than `limit` (null: no limit). An account's row may name no order yet (applied in the
 * cart); a guest's always names one. False when the customer has no use left.
 */
export async function takeCustomerUse(
  db: DbOrTx,
  customer: CodeCustomer,
  code: string,
  limit: number | null,
  orderId: string | null,
): Promise<boolean> {
  if (!("userId" in customer) && orderId === null) {
    throw new Error("A guest's use of a code is taken only with the order it is spent on.");
  }
  for (;;) {
    const useNumber = await nextUseNumber(db, customer, code);
    if (limit !== null && useNumber > limit) return false;
    const inserted =
      "userId" in customer
        ? await db
            .insert(discountUses)
            .values({ userId: customer.userId, code, useNumber, orderId })
            .onConflictDoNothing()
            .returning({ code: discountUses.code })
        : await db
            .insert(guestDiscountUses)
            .values({ contact: customer.contact, code, useNumber, orderId: orderId as string })
            .onConflictDoNothing()
            .returning({ code: guestDiscountUses.code });
    if (inserted.length === 1) return true;
  }
}

/**
 * An account placing an order with a code: the use taken when the code was applied in the cart (the oldest
 * not yet spent) now belongs to this order; without one, a new use is taken within the limit.
 */
export async function spendAccountUse(
  tx: Tx,
  userId: string,
  code: string,
  limit: number | null,
  orderId: string,
): Promise<boolean> {
  const [pending] = await tx
    .select({ useNumber: discountUses.useNumber })
    .from(discountUses)
    .where(and(eq(discountUses.userId, userId), eq(discountUses.code, code), isNull(discountUses.orderId)))
    .orderBy(asc(discountUses.useNumber))
    .limit(1)
    .for("update");
  if (!pending) return takeCustomerUse(tx, { userId }, code, limit, orderId);
  await tx
    .update(discountUses)
    .set({ orderId })
    .where(
      and(
        eq(discountUses.userId, userId),
        eq(discountUses.code, code),
        eq(discountUses.useNumber, pending.useNumber),
      ),
    );
  return true;
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
