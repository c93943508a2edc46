import { Hono } from "hono";
import type { ShopConfig } from "../../common/shop-config.ts";
import type { Deps } from "../deps.ts";

/** Public details the web app shows (header, footer, pop-ups); read from the environment at start. */
export function configRoutes({ env }: Deps) {
  return new Hono().get("/", (c) =>
    c.json({
      shopName: env.SHOP_NAME,
      shopPhone: env.SHOP_PHONE,
      shopEmail: env.SHOP_EMAIL,
    } satisfies ShopConfig),
  );
}
