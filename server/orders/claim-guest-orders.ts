import { randomUUID } from "node:crypto";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { addresses, orders, users } from "../db/schema.ts";
import { takeCustomerUse } from "../discounts/discounts.data.ts";

/**
 * Guest orders placed with an account's address join that account's My Orders, once the address is
 * confirmed (a confirmed sign-up, an e-mail link, a provider that vouches for it): only the mailbox's owner
 * gets them. Runs at every sign-in, so orders placed as a guest later still arrive. An empty address book
 * gets the newest claimed order's address. A code a claimed order used counts as one of the account's uses
 * of it. An order still waiting for online payment stays out until it
 * is paid or lapses, since an account holds one such order at a time.
 */
export async function claimGuestOrders(db: Db, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId));
    if (!user?.emailVerified) return 0;
    const claimed = await tx
      .update(orders)
      .set({ userId })
      .where(
        and(
          isNull(orders.userId),
          eq(orders.guestEmail, user.email.toLowerCase()),
          ne(orders.status, "awaiting_payment"),
        ),
      )
      .returning();
    // Each is a use that happened: recorded without a limit, so it counts against the account's next ones.
    for (const { id, discountCode } of claimed) {
      if (discountCode) await takeCustomerUse(tx, { userId }, discountCode, null, id);
    }
    // The guest was offered an account "with the same address": a new address book starts with the address
    // of the newest order it takes in, so the next checkout has it ready.
    const newest = claimed.reduce<(typeof claimed)[number] | undefined>(
      (latest, order) => (!latest || order.createdAt > latest.createdAt ? order : latest),
      undefined,
    );
    if (newest) {
      const [saved] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .limit(1);
      if (!saved) {
        await tx.insert(addresses).values({
          id: randomUUID(),
          userId,
          name: newest.shipName,
          phone: newest.shipPhone,
          line1: newest.shipLine1,
          line2: newest.shipLine2,
          city: newest.shipCity,
          district: newest.shipDistrict ?? "",
          state: newest.shipState,
          pin: newest.shipPin,
          lastUsedAt: newest.createdAt,
        });
      }
    }
    return claimed.length;
  });
}
