import { Hono } from "hono";
import { sendCached, toCachedJson } from "./catalogue/cached-json.ts";
import { cachedCombos } from "./combos/combos.data.ts";
import type { Deps } from "./deps.ts";
import { cachedProducts } from "./products/products.data.ts";

/**
 * The whole catalogue every page shares (the header's search, related products, the not-found suggestions):
 * every active product and combo, uncapped, in one answer made once per catalogue version. The paged
 * `/api/products` is for the grid; a shared catalogue read from it silently lost an owner's 101st product.
 */
export function catalogueRoutes(deps: Deps) {
  return new Hono().get("/", async (c) =>
    sendCached(
      c,
      await deps.catalogue.remember("catalogue answer", async () =>
        toCachedJson({ products: await cachedProducts(deps), combos: await cachedCombos(deps) }),
      ),
    ),
  );
}
