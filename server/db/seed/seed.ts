import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import { combos, discountCodes, productSlugRedirects, products } from "../schema.ts";
import { combos as seedCombos, products as seedProducts } from "./catalogue.ts";
import { discountCodes as seedDiscountCodes } from "./discount-codes.ts";
import { productTax } from "./tax.ts";

/**
 * Inserts the catalogue and the discount codes on first start. Rows that exist are left alone, so a restart never
 * overwrites stock or prices that staff have changed since.
 */
export async function seedCatalogue(db: Db) {
  await db.transaction(async (tx) => {
    // A product the owner moved to another address (and perhaps renamed) is not the seed's to bring back.
    const moved = new Set(
      (await tx.select({ slug: productSlugRedirects.oldSlug }).from(productSlugRedirects)).map(
        (row) => row.slug,
      ),
    );
    const missing = seedProducts.filter((product) => !moved.has(product.slug));
    if (missing.length > 0) {
      await tx
        .insert(products)
        .values(missing.map(({ menus, ...product }) => ({ ...product, menus: [...menus] })))
        .onConflictDoNothing();
    }
    await tx
      .insert(combos)
      .values(seedCombos.map((combo) => ({ ...combo, productSlugs: [...combo.productSlugs] })))
      .onConflictDoNothing();
    await tx.insert(discountCodes).values(seedDiscountCodes).onConflictDoNothing();
    // HSN and rate for the seed products that have no HSN yet (a shop from before invoices): the owner's
    // own choices, made at /admin/tax, always have an HSN and are never overwritten.
    for (const [slug, tax] of Object.entries(productTax)) {
      await tx
        .update(products)
        .set(tax)
        .where(and(eq(products.slug, slug), isNull(products.hsnCode)));
    }
  });
}
