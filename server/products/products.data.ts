import { and, asc, eq, sql } from "drizzle-orm";
import { type Badge, imageFor, type Menu, type Product } from "../../common/catalogue.ts";
import { combineRatings } from "../../common/reviews.ts";
import type { Db } from "../db/client.ts";
import { products, reviews } from "../db/schema.ts";
import type { Deps } from "../deps.ts";

type ProductRow = typeof products.$inferSelect;
export type ApprovedReviews = { count: number; ratingSum: number };

/**
 * The public shape: stock levels stay on the server, shoppers only learn whether it is in stock.
 * The rating and review count combine the catalogue's figures with the shop's approved reviews.
 */
export function presentProduct(
  row: ProductRow,
  approved: ApprovedReviews = { count: 0, ratingSum: 0 },
): Product {
  const images = row.images.map((key, index) => imageFor(key, row.imageAlts[index]));
  const rating = combineRatings({ rating: row.rating, count: row.reviewCount }, approved);
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    subcategory: row.subcategory,
    badge: row.badge as Badge | null,
    pricePaise: row.pricePaise,
    originalPricePaise: row.originalPricePaise,
    rating: rating.rating,
    reviewCount: rating.count,
    benefits: row.benefits,
    images,
    image: images[0] ?? imageFor(row.slug),
    menus: row.menus as Menu[],
    inStock: row.stock > 0,
  };
}

/** Approved reviews per product, one grouped scan joined to the catalogue. */
function approvedReviews(db: Db) {
  return db
    .select({
      productSlug: reviews.productSlug,
      count: sql<number>`count(*)::int`.as("approved_count"),
      ratingSum: sql<number>`sum(${reviews.rating})::int`.as("approved_rating_sum"),
    })
    .from(reviews)
    .where(eq(reviews.status, "approved"))
    .groupBy(reviews.productSlug)
    .as("approved");
}

async function selectProducts(db: Db, slug?: string): Promise<Product[]> {
  const approved = approvedReviews(db);
  const rows = await db
    .select({ product: products, count: approved.count, ratingSum: approved.ratingSum })
    .from(products)
    .leftJoin(approved, eq(approved.productSlug, products.slug))
    .where(
      slug === undefined
        ? eq(products.active, true)
        : and(eq(products.slug, slug), eq(products.active, true)),
    )
    .orderBy(asc(products.name));
  return rows.map((row) =>
    presentProduct(row.product, { count: row.count ?? 0, ratingSum: row.ratingSum ?? 0 }),
  );
}

export function listProducts(db: Db): Promise<Product[]> {
  return selectProducts(db);
}

export async function getProduct(db: Db, slug: string): Promise<Product | undefined> {
  const [product] = await selectProducts(db, slug);
  return product;
}

/** The active catalogue, read from the database once per catalogue version (decision 026). */
export function cachedProducts({ db, catalogue }: Pick<Deps, "db" | "catalogue">) {
  return catalogue.remember("products", () => listProducts(db));
}
