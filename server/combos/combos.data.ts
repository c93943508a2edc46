import { asc, eq } from "drizzle-orm";
import { type Combo, imageFor, type Product } from "../../common/catalogue.ts";
import type { Db } from "../db/client.ts";
import { combos } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { cachedProducts, listProducts } from "../products/products.data.ts";

/** The combos on offer; `catalogue` is the active products, when the caller already holds them. */
export async function listCombos(db: Db, catalogue?: Product[]): Promise<Combo[]> {
  const [comboRows, products] = await Promise.all([
    db.select().from(combos).where(eq(combos.active, true)).orderBy(asc(combos.createdAt), asc(combos.id)),
    catalogue ?? listProducts(db),
  ]);
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  return comboRows.map((row) => {
    const members = row.productSlugs.flatMap((slug) => bySlug.get(slug) ?? []);
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      badge: row.badge,
      benefits: row.benefits,
      originalPricePaise: row.originalPricePaise,
      salePricePaise: row.salePricePaise,
      savingsPaise: row.originalPricePaise - row.salePricePaise,
      image: imageFor(row.picture ?? row.image),
      ownPicture: row.picture !== null,
      products: members.map(({ slug, name, image, pricePaise }) => ({ slug, name, image, pricePaise })),
      inStock: row.stock > 0 && members.length === row.productSlugs.length,
    };
  });
}

/** The combos on offer, worked out once per catalogue version (decision 026). */
export function cachedCombos(deps: Pick<Deps, "db" | "catalogue">) {
  return deps.catalogue.remember("combos", async () => listCombos(deps.db, await cachedProducts(deps)));
}
