import { and, asc, eq } from "drizzle-orm";
import { type Badge, imageFor, type Menu, type Product } from "../../common/catalogue.ts";
import type { Db } from "../db/client.ts";
import { products } from "../db/schema.ts";

type ProductRow = typeof products.$inferSelect;

/** The public shape: stock levels stay on the server, shoppers only learn whether it is in stock. */
export function presentProduct(row: ProductRow): Product {
  const images = row.images.map(imageFor);
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    subcategory: row.subcategory,
    badge: row.badge as Badge | null,
    pricePaise: row.pricePaise,
    originalPricePaise: row.originalPricePaise,
    rating: row.rating,
    reviewCount: row.reviewCount,
    benefits: row.benefits,
    images,
    image: images[0] ?? imageFor(row.slug),
    menus: row.menus as Menu[],
    inStock: row.stock > 0,
  };
}

export async function listProducts(db: Db): Promise<Product[]> {
  const rows = await db.select().from(products).where(eq(products.active, true)).orderBy(asc(products.name));
  return rows.map(presentProduct);
}

export async function getProduct(db: Db, slug: string): Promise<Product | undefined> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.slug, slug), eq(products.active, true)));
  return row && presentProduct(row);
}
