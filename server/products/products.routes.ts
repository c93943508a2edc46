import { Hono } from "hono";
import { z } from "zod";
import { queryCatalogue } from "../../common/catalogue-rules.ts";
import { productQuerySchema, slugSchema } from "../../common/schemas/catalogue.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { getProduct, listProducts } from "./products.data.ts";

export function productRoutes({ db }: Deps) {
  return new Hono()
    .get("/", validate("query", productQuerySchema), async (c) => {
      const query = c.req.valid("query");
      return c.json(queryCatalogue(await listProducts(db), query));
    })
    .get("/:slug", validate("param", z.object({ slug: slugSchema })), async (c) => {
      const product = await getProduct(db, c.req.valid("param").slug);
      if (!product) throw notFound("No product with that name is in the catalogue.");
      return c.json(product);
    });
}
