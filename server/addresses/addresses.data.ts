import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Address, SavedAddress } from "../../common/schemas/address.ts";
import type { Db } from "../db/client.ts";
import { addresses } from "../db/schema.ts";
import { httpError } from "../errors.ts";

/** Enough for home, office, parents and a few gifts; more is almost certainly a script. */
export const MAX_ADDRESSES = 20;

type AddressRow = typeof addresses.$inferSelect;

export function presentAddress(row: AddressRow): SavedAddress {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    district: row.district,
    state: row.state as SavedAddress["state"],
    pin: row.pin,
  };
}

/** The account's address book, the one used last first. */
export async function listAddresses(db: Db, userId: string): Promise<SavedAddress[]> {
  const rows = await db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.lastUsedAt), desc(addresses.createdAt));
  return rows.map(presentAddress);
}

/** Saves an address; the same address typed again is the existing entry, moved to the top. */
export async function saveAddress(db: Db, userId: string, address: Address): Promise<SavedAddress> {
  return db.transaction(async (tx) => {
    const existing = await tx.select().from(addresses).where(eq(addresses.userId, userId)).for("update");
    const same = existing.find(
      (row) =>
        row.name === address.name &&
        row.phone === address.phone &&
        row.line1 === address.line1 &&
        row.line2 === address.line2 &&
        row.city === address.city &&
        row.district === address.district &&
        row.state === address.state &&
        row.pin === address.pin,
    );
    if (same) {
      const [row] = await tx
        .update(addresses)
        .set({ lastUsedAt: new Date() })
        .where(eq(addresses.id, same.id))
        .returning();
      return presentAddress(row ?? same);
    }
    if (existing.length >= MAX_ADDRESSES) {
      throw httpError(
        409,
        "address_book_full",
        `You can keep up to ${MAX_ADDRESSES} addresses. Remove one you no longer use first.`,
      );
    }
    const [row] = await tx
      .insert(addresses)
      .values({ id: randomUUID(), userId, ...address })
      .returning();
    if (!row) throw new Error("address insert returned nothing");
    return presentAddress(row);
  });
}

export async function deleteAddress(db: Db, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning({ id: addresses.id });
  return deleted.length > 0;
}
