import { Hono } from "hono";
import { z } from "zod";
import { queryCatalogue } from "../../common/catalogue-rules.ts";
import { productQuerySchema, slugSchema } from "../../common/schemas/catalogue.ts";
import { sendCachedJson, toCachedJson } from "../catalogue/cached-json.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { listProducts } from "./products.data.ts";

/** The active catalogue, read from the database once per catalogue version (decision 026). */
export function cachedProducts({ db, catalogue }: Pick<Deps, "db" | "catalogue">) {
  return catalogue.remember("products", () => listProducts(db));
}

export function productRoutes(deps: Deps) {
  const { catalogue } = deps;
  return new Hono()
    .get("/", validate("query", productQuerySchema), async (c) => {
      const query = c.req.valid("query");
      // Keyed by the parsed query, so ?page=1&sort=x and ?sort=x answer from one entry.
      const answer = await catalogue.remember(`products ${JSON.stringify(query)}`, async () =>
        toCachedJson(queryCatalogue(await cachedProducts(deps), query)),
      );
      return sendCachedJson(c, answer);
    })
    .get("/:slug", validate("param", z.object({ slug: slugSchema })), async (c) => {
      const { slug } = c.req.valid("param");
      const answer = await catalogue.remember(`product ${slug}`, async () => {
        const product = (await cachedProducts(deps)).find((candidate) => candidate.slug === slug);
        return product && toCachedJson(product);
      });
      if (!answer) throw notFound("No product with that name is in the catalogue.");
      return sendCachedJson(c, answer);
    });
}
