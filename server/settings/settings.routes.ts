import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { updateHeroSlidesSchema } from "../../common/schemas/hero-slides.ts";
import { guestDeliverySmsSchema, updateShopSettingsSchema } from "../../common/schemas/settings.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { readHeroSlides, updateHeroSlides } from "./hero-slides.data.ts";
import { readGuestDeliverySms, readSettings, saveGuestDeliverySms, updateSettings } from "./settings.data.ts";

/**
 * The owner's shop settings (/admin/settings): the name, brand colour and logo, the shipping rule, and the
 * home page's slides, and whether guests are texted their parcel's news. The
 * guard runs before anything sent is read: 401 signed out, 403 for staff and customers.
 */
export function adminSettingsRoutes(deps: Deps) {
  const { db, env } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", async (c) => c.json(await readSettings(db, env)))
    .put("/", validate("json", updateShopSettingsSchema), async (c) =>
      c.json(await updateSettings(db, env, c.req.valid("json"), c.get("owner"))),
    )
    .get("/hero-slides", async (c) => c.json({ slides: await readHeroSlides(db, { shownOnly: false }) }))
    .put("/hero-slides", validate("json", updateHeroSlidesSchema), async (c) =>
      c.json({ slides: await updateHeroSlides(db, c.req.valid("json").slides, c.get("owner")) }),
    )
    .get("/guest-delivery-sms", async (c) => c.json({ on: await readGuestDeliverySms(db) }))
    .put("/guest-delivery-sms", validate("json", guestDeliverySmsSchema), async (c) =>
      c.json({ on: await saveGuestDeliverySms(db, c.req.valid("json").on, c.get("owner")) }),
    );
}
