import { Hono } from "hono";
import { brandPalette } from "../../common/contrast.ts";
import type { ShopConfig } from "../../common/shop-config.ts";
import type { Deps } from "../deps.ts";
import { whatsAppConfig } from "../messaging/whatsapp.ts";
import { readHeroSlides } from "../settings/hero-slides.data.ts";
import { readSettings } from "../settings/settings.data.ts";
import { getPromoBanner, getShopDetails } from "../shop/shop.data.ts";

/**
 * Public: the shop's name, brand, helpdesk and seller details the web app shows; nothing else of the env leaves.
 * Remembered with the catalogue: the owner's changes are announced by the tables' triggers (migration 0017).
 */
export function configRoutes({ env, db, catalogue }: Deps) {
  return new Hono().get("/", async (c) =>
    c.json(
      await catalogue.remember("config", async (): Promise<ShopConfig> => {
        const [details, banner, settings, heroSlides] = await Promise.all([
          getShopDetails(db),
          getPromoBanner(db),
          readSettings(db, env),
          readHeroSlides(db, { shownOnly: true }),
        ]);
        return {
          shopName: settings.shopName,
          brand: {
            colour: settings.brandColour,
            palette: settings.brandColour ? brandPalette(settings.brandColour) : null,
            logo: settings.logo,
          },
          phone: details.phone,
          email: details.email,
          details,
          banner,
          heroSlides,
          publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
          whatsapp: whatsAppConfig(env) !== null,
          whatsappReminders: Boolean(whatsAppConfig(env)?.templates.cartReminder),
          // The cart shows shipping before checkout; the order is priced again on the server.
          shipping: settings.shipping,
        };
      }),
    ),
  );
}
