import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import {
  createDiscountCodeSchema,
  discountCodeListQuerySchema,
  discountCodeParamSchema,
  updateDiscountCodeSchema,
} from "../../common/schemas/discount-codes.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import {
  createDiscountCode,
  getDiscountCode,
  listDiscountCodes,
  updateDiscountCode,
} from "./admin-discounts.data.ts";

/**
 * The owner's discount codes: list, open, create, change and switch off (never delete: orders name them).
 * The guard runs before anything sent is read: 401 signed out, 403 for anyone but the owner.
 */
export function adminDiscountCodeRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", validate("query", discountCodeListQuerySchema), async (c) =>
      c.json(await listDiscountCodes(db, c.req.valid("query"))),
    )
    .post("/", validate("json", createDiscountCodeSchema), async (c) =>
      c.json(await createDiscountCode(db, c.req.valid("json"), c.get("owner")), 201),
    )
    .get("/:code", validate("param", discountCodeParamSchema), async (c) => {
      const code = await getDiscountCode(db, c.req.valid("param").code);
      if (!code) throw notFound("No such discount code.");
      return c.json(code);
    })
    .patch(
      "/:code",
      validate("param", discountCodeParamSchema),
      validate("json", updateDiscountCodeSchema),
      async (c) => {
        const changed = await updateDiscountCode(
          db,
          c.req.valid("param").code,
          c.req.valid("json"),
          c.get("owner"),
        );
        if (!changed) throw notFound("No such discount code.");
        return c.json(changed.after);
      },
    );
}
