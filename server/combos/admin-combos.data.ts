import { asc, eq, inArray } from "drizzle-orm";
import { imageFor } from "../../common/catalogue.ts";
import type { AdminCombo, UpdateCombo } from "../../common/schemas/combos.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, Tx } from "../db/client.ts";
import { combos, products } from "../db/schema.ts";
import { httpError } from "../errors.ts";
import { attachUploads } from "../products/product-images.ts";

type ComboRow = typeof combos.$inferSelect;
type Member = { slug: string; name: string; pricePaise: number; active: boolean; images: string[] };

const badField = (field: string, problem: string) =>
  httpError(400, "invalid_request", `${field}: ${problem}`, { [field]: problem });

function present(row: ComboRow, members: Map<string, Member>): AdminCombo {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    badge: row.badge,
    benefits: row.benefits,
    products: row.productSlugs.map((slug) => {
      const member = members.get(slug);
      return {
        slug,
        name: member?.name ?? slug,
        pricePaise: member?.pricePaise ?? 0,
        active: member?.active ?? false,
      };
    }),
    originalPricePaise: row.originalPricePaise,
    salePricePaise: row.salePricePaise,
    savingsPaise: row.originalPricePaise - row.salePricePaise,
    stock: row.stock,
    active: row.active,
    picture: row.picture ? { key: row.picture, small: imageFor(row.picture).small } : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A combo's picture is a photo uploaded through the product photos' pipeline (/api/admin/product-images),
 * stored once by its hash; a key with no stored photo behind it is refused.
 */
async function checkPicture(tx: Tx, picture: string | null | undefined) {
  if (!picture) return;
  const id = picture.slice("uploads/".length);
  const stored = await attachUploads(tx, [id]);
  if (!stored.has(id)) throw badField("picture", "The picture must be one uploaded here.");
}

/** What a combo's editor shows and checks of each product in it. */
const MEMBER_COLUMNS = {
  slug: products.slug,
  name: products.name,
  pricePaise: products.pricePaise,
  active: products.active,
  images: products.images,
};

async function membersOf(db: Pick<Db, "select">, slugs: string[]): Promise<Map<string, Member>> {
  if (slugs.length === 0) return new Map();
  const rows = await db.select(MEMBER_COLUMNS).from(products).where(inArray(products.slug, slugs));
  return new Map(rows.map((row) => [row.slug, row]));
}

export async function listAdminCombos(db: Db): Promise<AdminCombo[]> {
  const rows = await db.select().from(combos).orderBy(asc(combos.createdAt), asc(combos.id));
  const members = await membersOf(db, [...new Set(rows.flatMap((row) => row.productSlugs))]);
  return rows.map((row) => present(row, members));
}

export async function getAdminCombo(db: Db, id: string): Promise<AdminCombo | null> {
  const [row] = await db.select().from(combos).where(eq(combos.id, id));
  return row ? present(row, await membersOf(db, row.productSlugs)) : null;
}

/**
 * The chosen products, share-locked so none is hidden or repriced while the combo is saved, and the price
 * the combo's original price is: their sum. A combo shown in the shop may hold only products on sale.
 */
async function pricedMembers(tx: Tx, slugs: string[], shown: boolean) {
  const rows = await tx
    .select(MEMBER_COLUMNS)
    .from(products)
    .where(inArray(products.slug, slugs))
    .for("share");
  const members = new Map(rows.map((row) => [row.slug, row]));
  const missing = slugs.filter((slug) => !members.has(slug));
  if (missing.length > 0) throw badField("productSlugs", `There is no product ${missing.join(", ")}.`);
  const hidden = slugs.flatMap((slug) => {
    const member = members.get(slug);
    return member && !member.active ? [member.name] : [];
  });
  if (shown && hidden.length > 0) {
    throw badField(
      "productSlugs",
      `${hidden.join(", ")} ${hidden.length === 1 ? "is" : "are"} hidden from the shop: choose products on sale, or hide the combo.`,
    );
  }
  const originalPricePaise = slugs.reduce((sum, slug) => sum + (members.get(slug)?.pricePaise ?? 0), 0);
  return { members, originalPricePaise };
}

function checkSalePrice(salePricePaise: number, originalPricePaise: number) {
  if (salePricePaise >= originalPricePaise) {
    throw badField(
      "salePricePaise",
      `The sale price must be below the products' total of ₹${(originalPricePaise / 100).toLocaleString("en-IN")}.`,
    );
  }
}

export async function createCombo(
  db: Db,
  input: {
    id: string;
    title: string;
    description: string;
    badge: string;
    benefits: string[];
    productSlugs: string[];
    salePricePaise: number;
    stock: number;
    active: boolean;
    picture: string | null;
  },
  actor: AuditActor,
): Promise<AdminCombo> {
  return db.transaction(async (tx) => {
    await checkPicture(tx, input.picture);
    const { members, originalPricePaise } = await pricedMembers(tx, input.productSlugs, input.active);
    checkSalePrice(input.salePricePaise, originalPricePaise);
    const first = members.get(input.productSlugs[0] ?? "");
    const [row] = await tx
      .insert(combos)
      .values({
        id: input.id,
        title: input.title,
        description: input.description,
        badge: input.badge,
        benefits: input.benefits,
        productSlugs: input.productSlugs,
        originalPricePaise,
        salePricePaise: input.salePricePaise,
        // Shown when the owner has given no picture of the combo's own (and kept for carts and orders).
        image: first?.images[0] ?? input.productSlugs[0] ?? input.id,
        picture: input.picture,
        stock: input.stock,
        active: input.active,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const problem = `A combo ${input.id} exists already.`;
      throw httpError(409, "combo_exists", `id: ${problem}`, { id: problem });
    }
    const after = present(row, members);
    await recordAudit(tx, { actor, entityType: "combo", entityId: row.id, action: "create", after });
    return after;
  });
}

/**
 * Changes a combo under its row lock. Its original price is worked out again whenever its products or sale
 * price change (the seeded combos keep the spec's figures until then), and showing it again checks that
 * its products are on sale.
 */
export async function updateCombo(
  db: Db,
  id: string,
  input: UpdateCombo,
  actor: AuditActor,
): Promise<AdminCombo | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(combos).where(eq(combos.id, id)).for("update");
    if (!current) return null;
    await checkPicture(tx, input.picture);
    const productSlugs = input.productSlugs ?? current.productSlugs;
    const active = input.active ?? current.active;
    const salePricePaise = input.salePricePaise ?? current.salePricePaise;
    const { members, originalPricePaise: total } = await pricedMembers(tx, productSlugs, active);
    const repriced = input.productSlugs !== undefined || input.salePricePaise !== undefined;
    const originalPricePaise = repriced ? total : current.originalPricePaise;
    if (repriced) checkSalePrice(salePricePaise, originalPricePaise);
    const [row] = await tx
      .update(combos)
      .set({
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.badge === undefined ? {} : { badge: input.badge }),
        ...(input.benefits === undefined ? {} : { benefits: input.benefits }),
        ...(input.picture === undefined ? {} : { picture: input.picture }),
        productSlugs,
        originalPricePaise,
        salePricePaise,
        active,
      })
      .where(eq(combos.id, id))
      .returning();
    if (!row) return null;
    const before = present(current, await membersOf(tx, current.productSlugs));
    const after = present(row, members);
    await recordAudit(tx, { actor, entityType: "combo", entityId: id, action: "update", before, after });
    return after;
  });
}
