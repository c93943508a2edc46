import { sql } from "drizzle-orm";
import type { CartEntry } from "../../common/cart.ts";
import type { DbOrTx } from "../db/client.ts";
import { combos, products } from "../db/schema.ts";
import type { CatalogueCache } from "./catalogue-cache.ts";

/** The products and combos with nothing left, by "kind:id", with the name a shopper knows each by. */
export type SoldOut = ReadonlyMap<string, string>;

const SOLD_OUT_KEY = "sold out";

export const soldOutKey = (entry: Pick<CartEntry, "kind" | "id">) => `${entry.kind}:${entry.id}`;

/**
 * What has run out, as the catalogue last heard: an item's stock reaching 0 or coming back is announced on
 * the catalogue's channel (migration 0010), which forgets this on every instance, so while the listener is
 * connected the set is the committed one, a few milliseconds behind at most. Null while it is not connected
 * (nothing is then known without a read, and a read per order would cost more than it saves); the first call
 * connects it. Read with
 * `db`, which may be the caller's transaction: a connection from the pool, taken while every one is held by
 * an order waiting for this, would never come.
 */
export async function knownSoldOut(catalogue: CatalogueCache, db: DbOrTx): Promise<SoldOut | null> {
  if (!catalogue.listening()) {
    catalogue.start();
    return null;
  }
  return catalogue.remember(SOLD_OUT_KEY, async () => {
    const { rows } = await db.execute<{ key: string; name: string }>(
      sql`select 'product:' || ${products.slug} as key, ${products.name} as name from ${products} where ${products.stock} <= 0
          union all
          select 'combo:' || ${combos.id}, ${combos.title} from ${combos} where ${combos.stock} <= 0`,
    );
    return new Map(rows.map((row) => [row.key, row.name]));
  });
}

/**
 * knownSoldOut's set if it is already in memory (nothing is read), with the catalogue's generation it belongs
 * to: while that generation holds, no change to what has run out has been heard since the set was read.
 */
export function soldOutInMemory(catalogue: CatalogueCache): { soldOut: SoldOut; generation: number } | null {
  const generation = catalogue.generation();
  const known = catalogue.peek<SoldOut | null>(SOLD_OUT_KEY)?.value;
  return known ? { soldOut: known, generation } : null;
}
