import type { Db } from "../client.ts";
import { combos, discountCodes, products } from "../schema.ts";
import { combos as seedCombos, products as seedProducts } from "./catalogue.ts";
import { discountCodes as seedDiscountCodes } from "./discount-codes.ts";

/**
 * Inserts the catalogue and the discount codes on first start. Rows that exist are left alone, so a restart never
 * overwrites stock or prices that staff have changed since.
 */
export async function seedCatalogue(db: Db) {
  await db.transaction(async (tx) => {
    await tx
      .insert(products)
      .values(seedProducts.map(({ menus, ...product }) => ({ ...product, menus: [...menus] })))
      .onConflictDoNothing();
    await tx
      .insert(combos)
      .values(seedCombos.map((combo) => ({ ...combo, productSlugs: [...combo.productSlugs] })))
      .onConflictDoNothing();
    await tx.insert(discountCodes).values(seedDiscountCodes).onConflictDoNothing();
  });
}
