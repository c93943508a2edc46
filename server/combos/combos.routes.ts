import { Hono } from "hono";
import { z } from "zod";
import { slugSchema } from "../../common/schemas/catalogue.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { getCombo, listCombos } from "./combos.data.ts";

export function comboRoutes({ db }: Deps) {
  return new Hono()
    .get("/", async (c) => c.json({ items: await listCombos(db) }))
    .get("/:id", validate("param", z.object({ id: slugSchema })), async (c) => {
      const combo = await getCombo(db, c.req.valid("param").id);
      if (!combo) throw notFound("No combo with that name is on offer.");
      return c.json(combo);
    });
}
