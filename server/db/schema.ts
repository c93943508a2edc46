import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const products = pgTable(
  "products",
  {
    slug: text("slug").primaryKey(),
    name: text("name").notNull().unique(),
    description: text("description").notNull(),
    category: text("category", { enum: ["haircare", "skincare", "body", "nutrition"] }).notNull(),
    subcategory: text("subcategory").notNull(),
    badge: text("badge"),
    pricePaise: integer("price_paise").notNull(),
    originalPricePaise: integer("original_price_paise"),
    rating: numeric("rating", { precision: 2, scale: 1, mode: "number" }).notNull(),
    reviewCount: integer("review_count").notNull().default(0),
    benefits: jsonb("benefits").$type<string[]>().notNull(),
    images: jsonb("images").$type<string[]>().notNull(),
    menus: jsonb("menus").$type<string[]>().notNull().default([]),
    stock: integer("stock").notNull().default(0),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (table) => [
    check("products_price_positive", sql`${table.pricePaise} > 0`),
    check("products_stock_not_negative", sql`${table.stock} >= 0`),
  ],
);

export const combos = pgTable(
  "combos",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    productSlugs: jsonb("product_slugs").$type<string[]>().notNull(),
    originalPricePaise: integer("original_price_paise").notNull(),
    salePricePaise: integer("sale_price_paise").notNull(),
    badge: text("badge").notNull(),
    benefits: jsonb("benefits").$type<string[]>().notNull(),
    image: text("image").notNull(),
    stock: integer("stock").notNull().default(0),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (table) => [
    check("combos_sale_below_original", sql`${table.salePricePaise} < ${table.originalPricePaise}`),
    check("combos_stock_not_negative", sql`${table.stock} >= 0`),
  ],
);
