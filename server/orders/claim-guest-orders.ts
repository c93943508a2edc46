import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { orders, users } from "../db/schema.ts";
import { takeCustomerUse } from "../discounts/discounts.data.ts";

/**
 * Guest orders placed with an account's address join that account's My Orders, once the address is
 * confirmed (a confirmed sign-up, an e-mail link, a provider that vouches for it): only the mailbox's owner
 * gets them. Runs at every sign-in, so orders placed as a guest later still arrive. A code a claimed order
 * used counts as one of the account's uses of it. An order still waiting for online payment stays out until it
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
      .returning({ id: orders.id, discountCode: orders.discountCode });
    // Each is a use that happened: recorded without a limit, so it counts against the account's next ones.
    for (const { id, discountCode } of claimed) {
      if (discountCode) await takeCustomerUse(tx, { userId }, discountCode, null, id);
    }
    return claimed.length;
  });
}
