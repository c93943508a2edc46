import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { queryCatalogue } from "../../common/catalogue-rules.ts";
import { productQuerySchema, slugSchema } from "../../common/schemas/catalogue.ts";
import { searchByWords } from "../../common/search-words.ts";
import { sendCached, toCachedJson } from "../catalogue/cached-json.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { findMovedProduct } from "./admin-products.data.ts";
import { cachedProducts } from "./products.data.ts";

export function productRoutes(deps: Deps) {
  const { catalogue } = deps;
  return new Hono()
    .get("/", validate("query", productQuerySchema), async (c) => {
      const query = c.req.valid("query");
      // Keyed by the parsed query, so ?page=1&sort=x and ?sort=x answer from one entry.
      const answer = await catalogue.remember(`products ${JSON.stringify(query)}`, async () =>
        toCachedJson(queryCatalogue(await cachedProducts(deps), query, searchByWords)),
      );
      return sendCached(c, answer);
    })
    .get("/:slug", validate("param", z.object({ slug: slugSchema })), async (c) => {
      const { slug } = c.req.valid("param");
      const answer = await catalogue.remember(`product ${slug}`, async () => {
        const product = (await cachedProducts(deps)).find((candidate) => candidate.slug === slug);
        return product && toCachedJson(product);
      });
      if (!answer) {
        // An address the product had before it was renamed: a permanent redirect, as for the page.
        const moved = await findMovedProduct(deps.db, slug);
        if (moved) {
          // A browser's fetch follows it; a caller that does not (the server's own renderer) reads the slug.
          c.header("Location", `/api/products/${moved}`);
          return c.json(
            { error: { code: "product_moved", message: "This product has moved." }, slug: moved },
            308,
          );
        }
        throw notFound("No product with that name is in the catalogue.");
      }
      return sendCached(c, answer);
    });
}

/**
 * /product/<an earlier address> answers a permanent redirect to where the product lives now, before the page
 * is rendered (search engines move their link). Only an address the catalogue does not show is looked up.
 */
export function redirectMovedProductPages(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const slug = c.req.path.slice("/product/".length);
    if (!slugSchema.safeParse(slug).success) return next();
    if ((await cachedProducts(deps)).some((product) => product.slug === slug)) return next();
    const moved = await findMovedProduct(deps.db, slug);
    if (!moved) return next();
    const query = new URL(c.req.url).search;
    return c.redirect(`/product/${moved}${query}`, 301);
  };
}
