import { Hono } from "hono";
import { z } from "zod";
import { slugSchema } from "../../common/schemas/catalogue.ts";
import { sendCached, toCachedJson } from "../catalogue/cached-json.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { cachedCombos } from "./combos.data.ts";

export function comboRoutes(deps: Deps) {
  const { catalogue } = deps;
  return new Hono()
    .get("/", async (c) =>
      sendCached(
        c,
        await catalogue.remember("combos answer", async () =>
          toCachedJson({ items: await cachedCombos(deps) }),
        ),
      ),
    )
    .get("/:id", validate("param", z.object({ id: slugSchema })), async (c) => {
      const { id } = c.req.valid("param");
      const answer = await catalogue.remember(`combo ${id}`, async () => {
        const combo = (await cachedCombos(deps)).find((candidate) => candidate.id === id);
        return combo && toCachedJson(combo);
      });
      if (!answer) throw notFound("No combo with that name is on offer.");
      return sendCached(c, answer);
    });
}
