import { asc, eq } from "drizzle-orm";
import { type Combo, imageFor } from "../../common/catalogue.ts";
import type { Db } from "../db/client.ts";
import { combos } from "../db/schema.ts";
import { listProducts } from "../products/products.data.ts";

export async function listCombos(db: Db): Promise<Combo[]> {
  const [comboRows, catalogue] = await Promise.all([
    db.select().from(combos).where(eq(combos.active, true)).orderBy(asc(combos.createdAt), asc(combos.id)),
    listProducts(db),
  ]);
  const bySlug = new Map(catalogue.map((product) => [product.slug, product]));
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
      image: imageFor(row.image),
      products: members.map(({ slug, name, image, pricePaise }) => ({ slug, name, image, pricePaise })),
      inStock: row.stock > 0 && members.length === row.productSlugs.length,
    };
  });
}

export async function getCombo(db: Db, id: string): Promise<Combo | undefined> {
  return (await listCombos(db)).find((combo) => combo.id === id);
}
