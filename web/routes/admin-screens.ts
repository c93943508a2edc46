import type { RouteObject } from "react-router";
import { screen } from "../lib/screen-route.ts";

/** Staff's screens under /admin beside the dashboard (web/router.tsx adds them when one is first opened). */
export const adminScreens: RouteObject[] = [
  screen("orders", () => import("./admin-orders.tsx")),
  screen("orders/:number", () => import("./admin-order.tsx")),
  screen("stock", () => import("./admin-stock.tsx")),
  screen("shipping", () => import("./admin-shipping.tsx")),
  screen("shipping/weights", () => import("./admin-weights.tsx")),
  screen("cod", () => import("./admin-cod.tsx")),
  screen("cod/rules", () => import("./admin-cod-rules.tsx")),
  screen("cod/returns", () => import("./admin-cod-returns.tsx")),
  screen("cod-confirm", () => import("./admin-cod-confirm.tsx")),
  screen("questions", () => import("./admin-questions.tsx")),
  screen("reviews", () => import("./admin-reviews.tsx")),
  screen("messages", () => import("./admin-messages.tsx")),
  screen("products", () => import("./admin-products.tsx")),
  screen("products/:slug", () => import("./admin-product.tsx")),
  screen("discount-codes", () => import("./admin-discount-codes.tsx")),
  screen("audit", () => import("./admin-audit.tsx")),
  screen("shop", () => import("./admin-shop.tsx")),
  screen("settings", () => import("./admin-settings.tsx")),
  // The list, or with "new" or an id, the editor.
  screen("pages/:id?", () => import("./admin-pages.tsx")),
  screen("combos", () => import("./admin-combos.tsx")),
  screen("delivery", () => import("./admin-delivery.tsx")),
  screen("tax", () => import("./admin-tax.tsx")),
  screen("staff", () => import("./admin-staff.tsx")),
];
