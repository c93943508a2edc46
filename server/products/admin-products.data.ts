import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { imageFor, UPLOADED_IMAGE_KEY } from "../../common/catalogue.ts";
import type {
  AdminProduct,
  AdminProductList,
  CreateProduct,
  UpdateProduct,
} from "../../common/schemas/admin-products.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { type Db, isUniqueViolation, type Tx } from "../db/client.ts";
import { cartItems, combos, orderLines, productSlugRedirects, products } from "../db/schema.ts";
import { httpError } from "../errors.ts";
import { attachUploads } from "./product-images.ts";

type Row = typeof products.$inferSelect;

const badField = (field: string, problem: string) =>
  httpError(400, "invalid_request", `${field}: ${problem}`, { [field]: problem });

function toAdmin(row: Row, ordered: boolean): AdminProduct {
  return {
    slug: row.slug,
    name: row.name,
    pricePaise: row.pricePaise,
    originalPricePaise: row.originalPricePaise,
    description: row.description,
    benefits: [row.benefits[0] ?? "", row.benefits[1] ?? "", row.benefits[2] ?? ""],
    category: row.category,
    subcategory: row.subcategory,
    badge: row.badge as AdminProduct["badge"],
    menus: row.menus as AdminProduct["menus"],
    images: row.images.map((key, index) => {
      const alt = row.imageAlts[index] ?? "";
      return { ...imageFor(key, alt), key, alt };
    }),
    active: row.active,
    stock: row.stock,
    version: row.version,
    ordered,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a product: what the editor changes, without derived addresses. */
const audited = (row: Row) => ({
  slug: row.slug,
  name: row.name,
  pricePaise: row.pricePaise,
  originalPricePaise: row.originalPricePaise,
  description: row.description,
  benefits: row.benefits,
  category: row.category,
  subcategory: row.subcategory,
  badge: row.badge,
  menus: row.menus,
  images: row.images,
  imageAlts: row.imageAlts,
  active: row.active,
  version: row.version,
});

/** LIKE's own characters in what the owner typed match themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Every product, shown or hidden, by name; `q` narrows to names containing it (any case). A shop's
 * catalogue is dozens of products, so the list is one page (capped far above that).
 */
export async function listAdminProducts(db: Db, q: string | undefined): Promise<AdminProductList> {
  const rows = await db
    .select({
      slug: products.slug,
      name: products.name,
      pricePaise: products.pricePaise,
      originalPricePaise: products.originalPricePaise,
      active: products.active,
      stock: products.stock,
      category: products.category,
      images: products.images,
    })
    .from(products)
    .where(q ? sql`${products.name} ilike ${likePattern(q)}` : undefined)
    .orderBy(asc(products.name))
    .limit(1000);
  return {
    items: rows.map(({ images, ...row }) => ({ ...row, image: imageFor(images[0] ?? row.slug) })),
  };
}

/** Whether any order holds the product, under its address now or any it had before. */
async function wasOrdered(db: Pick<Db, "select">, slug: string): Promise<boolean> {
  const earlier = db
    .select({ slug: productSlugRedirects.oldSlug })
    .from(productSlugRedirects)
    .where(eq(productSlugRedirects.productSlug, slug));
  const [hit] = await db
    .select({ one: sql`1` })
    .from(orderLines)
    .where(
      and(
        eq(orderLines.kind, "product"),
        or(eq(orderLines.itemId, slug), inArray(orderLines.itemId, earlier)),
      ),
    )
    .limit(1);
  return Boolean(hit);
}

export async function getAdminProduct(db: Db, slug: string): Promise<AdminProduct | null> {
  const [row] = await db.select().from(products).where(eq(products.slug, slug));
  return row ? toAdmin(row, await wasOrdered(db, row.slug)) : null;
}

/**
 * A slug or name another product holds is refused naming the field; so is a slug that is another
 * product's earlier address (its links redirect there). Checked under the transaction; the unique
 * indexes catch a race between two saves, mapped to the same answer by `uniqueProblem`.
 */
async function checkUnique(tx: Tx, input: { slug: string; name: string }, self: string | null) {
  const [sameSlug] = await tx
    .select({ name: products.name })
    .from(products)
    .where(
      self ? and(eq(products.slug, input.slug), ne(products.slug, self)) : eq(products.slug, input.slug),
    );
  if (sameSlug) throw badField("slug", `is taken by ${sameSlug.name}`);
  const [redirect] = await tx
    .select({ name: products.name, slug: products.slug })
    .from(productSlugRedirects)
    .innerJoin(products, eq(products.slug, productSlugRedirects.productSlug))
    .where(eq(productSlugRedirects.oldSlug, input.slug));
  if (redirect && redirect.slug !== self) {
    throw badField("slug", `was an earlier address of ${redirect.name} and still leads there`);
  }
  const [sameName] = await tx
    .select({ slug: products.slug })
    .from(products)
    .where(
      self
        ? and(sql`lower(${products.name}) = lower(${input.name})`, ne(products.slug, self))
        : sql`lower(${products.name}) = lower(${input.name})`,
    );
  if (sameName) throw badField("name", "Another product has this name.");
}

function uniqueProblem(error: unknown) {
  if (isUniqueViolation(error, "products_pkey")) return badField("slug", "is taken by another product");
  if (isUniqueViolation(error, "products_name_unique"))
    return badField("name", "Another product has this name.");
  return null;
}

/**
 * Images are keys the upload gave (a row of product_image_files) or keys the product shows already (the
 * bundled photos), never a made-up address.
 */
async function checkImages(tx: Tx, keys: string[], current: string[]) {
  const uploaded = keys.filter((key) => !current.includes(key));
  const bad = uploaded.find((key) => !UPLOADED_IMAGE_KEY.test(key));
  if (bad !== undefined) throw badField("images", `${bad} is not an uploaded image`);
  if (uploaded.length === 0) return;
  const ids = uploaded.map((key) => key.slice("uploads/".length));
  const found = await attachUploads(tx, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw badField("images", `uploads/${missing} is not an uploaded image`);
}

const columnsOf = (input: CreateProduct) => ({
  slug: input.slug,
  name: input.name,
  pricePaise: input.pricePaise,
  originalPricePaise: input.originalPricePaise,
  description: input.description,
  benefits: [...input.benefits],
  category: input.category,
  subcategory: input.subcategory,
  badge: input.badge,
  menus: input.menus,
  images: input.images.map((image) => image.key),
  imageAlts: input.images.map((image) => image.alt),
  active: input.active,
});

/** A new product, shown or hidden as sent; it starts with no stock (the stock page sets it). */
export async function createProduct(db: Db, input: CreateProduct, actor: AuditActor): Promise<AdminProduct> {
  try {
    return await db.transaction(async (tx) => {
      await checkUnique(tx, input, null);
      await checkImages(
        tx,
        input.images.map((image) => image.key),
        [],
      );
      const [row] = await tx
        .insert(products)
        .values({ ...columnsOf(input), rating: 0, reviewCount: 0, stock: 0 })
        .returning();
      if (!row) throw new Error("The product was not stored.");
      await recordAudit(tx, {
        actor,
        entityType: "product",
        entityId: row.slug,
        action: "create",
        after: audited(row),
      });
      return toAdmin(row, false);
    });
  } catch (error) {
    throw uniqueProblem(error) ?? error;
  }
}

export const productChanged = () =>
  httpError(
    409,
    "product_changed",
    "Someone else changed this product after you opened it. Your changes are not saved: review theirs, then save yours again.",
  );

/**
 * Saves the editor's product under its row lock, only when it is still at the version the editor opened:
 * of two saves made from the same version, the second waits for the first and is then refused (409).
 * A new slug moves everything that names the product (questions and reviews by their foreign keys, carts
 * and combos here) and keeps the old one as a permanent redirect.
 */
export async function updateProduct(
  db: Db,
  slug: string,
  input: UpdateProduct,
  actor: AuditActor,
): Promise<AdminProduct | null> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(products).where(eq(products.slug, slug)).for("update");
      if (!current) return null;
      if (current.version !== input.version) throw productChanged();
      await checkUnique(tx, input, current.slug);
      await checkImages(
        tx,
        input.images.map((image) => image.key),
        current.images,
      );
      const [row] = await tx
        .update(products)
        .set({ ...columnsOf(input), version: current.version + 1 })
        .where(eq(products.slug, current.slug))
        .returning();
      if (!row) return null;
      if (row.slug !== current.slug) await moveSlug(tx, current.slug, row.slug);
      await recordAudit(tx, {
        actor,
        entityType: "product",
        entityId: row.slug,
        action: row.slug === current.slug ? "update" : "update_and_move",
        before: audited(current),
        after: audited(row),
      });
      return toAdmin(row, await wasOrdered(tx, row.slug));
    });
  } catch (error) {
    throw uniqueProblem(error) ?? error;
  }
}

async function moveSlug(tx: Tx, from: string, to: string) {
  // Moving back to an address it had before: that one is the product's again, not a redirect.
  await tx.delete(productSlugRedirects).where(eq(productSlugRedirects.oldSlug, to));
  await tx.insert(productSlugRedirects).values({ oldSlug: from, productSlug: to });
  await tx
    .update(cartItems)
    .set({ itemId: to })
    .where(and(eq(cartItems.kind, "product"), eq(cartItems.itemId, from)));
  await tx
    .update(combos)
    .set({
      productSlugs: sql`(select jsonb_agg(case when slug = ${from} then ${to} else slug end order by position)
        from jsonb_array_elements_text(${combos.productSlugs}) with ordinality as member(slug, position))`,
    })
    .where(sql`${combos.productSlugs} ? ${from}`);
}

/** Where a product that moved lives now, by one of its earlier addresses. */
export async function findMovedProduct(db: Db, oldSlug: string): Promise<string | null> {
  const [row] = await db
    .select({ slug: productSlugRedirects.productSlug })
    .from(productSlugRedirects)
    .where(eq(productSlugRedirects.oldSlug, oldSlug));
  return row?.slug ?? null;
}
