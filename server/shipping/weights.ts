import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { weightsSchema } from "../../common/schemas/shipping.ts";
import type { Weights, WeightsSummary } from "../../common/weights.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { combos, products, shopSettings } from "../db/schema.ts";
import { notFound } from "../errors.ts";
import { readDefaultItemSize } from "./shipments.ts";

const size = (table: typeof products | typeof combos) => ({
  weightGrams: table.weightGrams,
  lengthCm: table.lengthCm,
  breadthCm: table.breadthCm,
  heightCm: table.heightCm,
  active: table.active,
});

/** The Weights page's figures: the default parcel, then every item, unweighed first, each group by name. */
export async function readWeights(db: Db): Promise<Weights> {
  const [productRows, comboRows, defaultItem] = await Promise.all([
    db
      .select({ id: products.slug, name: products.name, ...size(products) })
      .from(products)
      .orderBy(asc(products.name)),
    db
      .select({ id: combos.id, name: combos.title, ...size(combos) })
      .from(combos)
      .orderBy(asc(combos.title)),
    readDefaultItemSize(db),
  ]);
  const items = [
    ...productRows.map((row) => ({ ...row, kind: "product" as const })),
    ...comboRows.map((row) => ({ ...row, kind: "combo" as const })),
  ];
  // The ones a booking would stop at (or pack by the default) come first: they are what the owner is here for.
  items.sort((a, b) => Number(a.weightGrams !== null) - Number(b.weightGrams !== null));
  return { defaultItem, items };
}

/**
 * Saves the whole page at once, in one transaction: the default parcel and each item's weight and box. An id
 * that is not in the catalogue refuses the save (404), leaving everything as it was.
 */
export async function saveWeights(db: Db, input: z.infer<typeof weightsSchema>, actor: AuditActor) {
  const before = await readWeights(db);
  const was = new Map(before.items.map((item) => [`${item.kind}:${item.id}`, item]));
  const measuresOf = (item: Weights["defaultItem"]) =>
    `${item.weightGrams ?? "-"} g, ${item.lengthCm ?? "-"}×${item.breadthCm ?? "-"}×${item.heightCm ?? "-"} cm`;
  // The history names only what this save changed.
  const changed = input.items.filter((item) => {
    const old = was.get(`${item.kind}:${item.id}`);
    return !old || measuresOf(old) !== measuresOf(item);
  });
  await db.transaction(async (tx) => {
    await tx
      .update(shopSettings)
      .set({
        defaultItemWeightGrams: input.defaultItem.weightGrams,
        defaultItemLengthCm: input.defaultItem.lengthCm,
        defaultItemBreadthCm: input.defaultItem.breadthCm,
        defaultItemHeightCm: input.defaultItem.heightCm,
      })
      .where(eq(shopSettings.id, 1));
    for (const { kind, id, ...measures } of changed) {
      const updated =
        kind === "product"
          ? await tx
              .update(products)
              .set(measures)
              .where(eq(products.slug, id))
              .returning({ id: products.slug })
          : await tx.update(combos).set(measures).where(eq(combos.id, id)).returning({ id: combos.id });
      if (updated.length === 0) throw notFound(`There is no ${kind} ${id}: nothing was saved.`);
    }
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "weights",
      action: "update weights",
      before: {
        defaultItem: measuresOf(before.defaultItem),
        ...Object.fromEntries(
          changed.map((item) => {
            const old = was.get(`${item.kind}:${item.id}`);
            return [item.id, old ? measuresOf(old) : null];
          }),
        ),
      },
      after: {
        defaultItem: measuresOf(input.defaultItem),
        ...Object.fromEntries(changed.map((item) => [item.id, measuresOf(item)])),
      },
    });
  });
  return readWeights(db);
}

/** The Shipping desk's line on weights: the default parcel, and the items on sale a booking would stop at. */
export async function weightsSummary(db: Db): Promise<WeightsSummary> {
  const unweighed = (table: typeof products | typeof combos) =>
    db
      .select({ n: count() })
      .from(table)
      .where(and(isNull(table.weightGrams), eq(table.active, true)));
  const [[unweighedProducts], [unweighedCombos], defaultItem] = await Promise.all([
    unweighed(products),
    unweighed(combos),
    readDefaultItemSize(db),
  ]);
  return { defaultItem, unweighed: (unweighedProducts?.n ?? 0) + (unweighedCombos?.n ?? 0) };
}
