import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { comboParamSchema, createComboSchema, updateComboSchema } from "../../common/schemas/combos.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { createCombo, getAdminCombo, listAdminCombos, updateCombo } from "./admin-combos.data.ts";

/**
 * The owner's combos: list (hidden ones too), open, create, change and hide (never delete: orders name
 * them). The guard runs before anything sent is read: 401 signed out, 403 for anyone but the owner.
 */
export function adminComboRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", async (c) => c.json({ items: await listAdminCombos(db) }))
    .post("/", validate("json", createComboSchema), async (c) =>
      c.json(await createCombo(db, c.req.valid("json"), c.get("owner")), 201),
    )
    .get("/:id", validate("param", comboParamSchema), async (c) => {
      const combo = await getAdminCombo(db, c.req.valid("param").id);
      if (!combo) throw notFound("No such combo.");
      return c.json(combo);
    })
    .patch("/:id", validate("param", comboParamSchema), validate("json", updateComboSchema), async (c) => {
      const combo = await updateCombo(db, c.req.valid("param").id, c.req.valid("json"), c.get("owner"));
      if (!combo) throw notFound("No such combo.");
      return c.json(combo);
    });
}
