import { Hono } from "hono";
import type { ShopConfig } from "../../common/shop-config.ts";
import type { Deps } from "../deps.ts";

/** Public: what the web app shows as the shop's name and helpdesk; nothing else of the env leaves. */
export function configRoutes({ env }: Deps) {
  return new Hono().get("/", (c) =>
    c.json({
      shopName: env.SHOP_NAME,
      phone: env.SHOP_PHONE,
      email: env.SHOP_EMAIL,
      publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
      // The cart shows shipping before checkout; the order is priced again on the server.
      shipping: {
        freeShippingMinPaise: env.FREE_SHIPPING_MIN_PAISE,
        shippingFeePaise: env.SHIPPING_FEE_PAISE,
      },
    } satisfies ShopConfig),
  );
}
