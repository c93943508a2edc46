import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { codPlaceRuleKeySchema, codPlaceRuleSchema, codSettingsSchema } from "../../common/cod-rules.ts";
import { prepaidIncentiveSchema } from "../../common/prepaid-incentive.ts";
import { requireAdmin, requireOwner } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import {
  adminCodRules,
  deleteCodPlaceRule,
  putCodPlaceRule,
  saveCodSettings,
  savePrepaidIncentive,
} from "./cod-rules.ts";

/**
 * The owner's COD rules (docs/decisions/062): staff may read them (to answer a shopper), only the owner
 * changes them. The guard runs before anything sent is read: 401 signed out, 403 otherwise.
 */
export function adminCodRuleRoutes(deps: Deps) {
  const { db, env } = deps;
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(async (c, next) => {
      c.set("admin", c.req.method === "GET" ? await requireAdmin(deps, c) : await requireOwner(deps, c));
      await next();
    })
    .get("/", async (c) => c.json(await adminCodRules(db, env)))
    .put("/settings", validate("json", codSettingsSchema), async (c) =>
      c.json({ settings: await saveCodSettings(db, env, c.req.valid("json"), c.get("admin")) }),
    )
    .put("/prepaid-incentive", validate("json", prepaidIncentiveSchema), async (c) =>
      c.json({
        prepaidIncentive: await savePrepaidIncentive(db, c.req.valid("json"), c.get("admin")),
      }),
    )
    .put("/places", validate("json", codPlaceRuleSchema), async (c) => {
      const { rule, created } = await putCodPlaceRule(db, c.req.valid("json"), c.get("admin"));
      return c.json({ rule }, created ? 201 : 200);
    })
    .delete("/places", validate("query", codPlaceRuleKeySchema), async (c) => {
      if (!(await deleteCodPlaceRule(db, c.req.valid("query"), c.get("admin")))) {
        throw notFound("There is no rule for this place.");
      }
      return c.body(null, 204);
    });
}
