import { Hono } from "hono";
import type { ShopConfig } from "../../common/shop-config.ts";
import type { Deps } from "../deps.ts";
import { whatsAppConfig } from "../messaging/whatsapp.ts";
import { getPromoBanner, getShopDetails } from "../shop/shop.data.ts";

/**
 * Public: the shop's name, helpdesk and seller details the web app shows; nothing else of the env leaves.
 * Remembered with the catalogue: the owner's changes are announced by the tables' triggers (migration 0017).
 */
export function configRoutes({ env, db, catalogue }: Deps) {
  return new Hono().get("/", async (c) =>
    c.json(
      await catalogue.remember("config", async (): Promise<ShopConfig> => {
        const [details, banner] = await Promise.all([getShopDetails(db), getPromoBanner(db)]);
        return {
          shopName: env.SHOP_NAME,
          phone: details.phone,
          email: details.email,
          details,
          banner,
          publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
          whatsapp: whatsAppConfig(env) !== null,
          // The cart shows shipping before checkout; the order is priced again on the server.
          shipping: {
            freeShippingMinPaise: env.FREE_SHIPPING_MIN_PAISE,
            shippingFeePaise: env.SHIPPING_FEE_PAISE,
          },
        };
      }),
    ),
  );
}
