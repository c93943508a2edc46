import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { updatePromoBannerSchema, updateShopDetailsSchema } from "../../common/schemas/shop.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { getPromoBanner, getShopDetails, updatePromoBanner, updateShopDetails } from "./shop.data.ts";

/**
 * The owner's page of the shop's own details and its promo banner (/admin/shop). The guard runs before anything sent is read:
 * 401 signed out, 403 for staff and customers.
 */
export function adminShopRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/details", async (c) => c.json(await getShopDetails(db)))
    .put("/details", validate("json", updateShopDetailsSchema), async (c) =>
      c.json(await updateShopDetails(db, c.req.valid("json"), c.get("owner"))),
    )
    .get("/banner", async (c) => c.json(await getPromoBanner(db)))
    .put("/banner", validate("json", updatePromoBannerSchema), async (c) =>
      c.json(await updatePromoBanner(db, c.req.valid("json"), c.get("owner"))),
    );
}
