import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { addresses, orders } from "../db/schema.ts";
import { takeCustomerUse } from "../discounts/discounts.data.ts";
import { shippingAddressOf } from "./order-address.ts";

/** What adding a guest order to an account came to. */
export type ClaimOutcome = "added" | "already_added" | "in_another_account" | "awaiting_payment";

/**
 * Moves one guest order into an account, once the owner of the order's e-mail address has said so
 * (docs/decisions/050): never at sign-in, since anyone can place a guest order with anyone's address. The
 * caller has checked who is asking. A code the order used becomes one of the account's uses of it, and an
 * empty address book gets the order's address, so the next checkout has it ready. An order still waiting for
 * online payment stays out until it is paid or lapses, since an account holds one such order at a time.
 */
export async function claimGuestOrder(db: Db, userId: string, orderId: string): Promise<ClaimOutcome> {
  return db.transaction(async (tx) => {
    // Locked, so two taps on the mailed link, or a tap and the page's button, move it once.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order?.guestEmail) return "in_another_account";
    if (order.userId) return order.userId === userId ? "already_added" : "in_another_account";
    if (order.status === "awaiting_payment") return "awaiting_payment";
    await tx.update(orders).set({ userId }).where(eq(orders.id, orderId));
    // A use that happened: recorded without a limit, so it counts against the account's next ones.
    if (order.discountCode) await takeCustomerUse(tx, { userId }, order.discountCode, null, order.id);
    const [saved] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .limit(1);
    if (!saved) {
      await tx.insert(addresses).values({
        id: randomUUID(),
        userId,
        ...shippingAddressOf(order),
        lastUsedAt: order.createdAt,
      });
    }
    return "added";
  });
}
