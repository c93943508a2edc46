import type { ComponentType } from "react";
import type { ActionFunction, LoaderFunction, RouteObject } from "react-router";
import { Spinner } from "./components/spinner.tsx";
import { ROOT_ROUTE_ID } from "./lib/shop-data.ts";
import { RootError, RootLayout, loader as rootLoader, shouldRevalidate } from "./routes/root-layout.tsx";

/** A screen loaded on demand; its module exports Component and, where it needs data, loader (and action). */
type ScreenModule = {
  Component: ComponentType;
  loader?: LoaderFunction;
  action?: ActionFunction;
  ErrorBoundary?: ComponentType;
  handle?: unknown;
};
const screen = (path: string | undefined, load: () => Promise<ScreenModule>): RouteObject =>
  path === undefined ? { index: true, lazy: load } : { path, lazy: load };

const home = () => import("./routes/home.tsx");
const contentPage = () => import("./routes/content-page.tsx");

export const routes: RouteObject[] = [
  {
    id: ROOT_ROUTE_ID,
    path: "/",
    Component: RootLayout,
    loader: rootLoader,
    shouldRevalidate,
    ErrorBoundary: RootError,
    HydrateFallback: Spinner,
    children: [
      screen(undefined, home),
      screen("product/:slug", () => import("./routes/product.tsx")),
      screen("combo/:id", () => import("./routes/combo.tsx")),
      screen("cart", () => import("./routes/cart.tsx")),
      screen("login", () => import("./routes/login.tsx")),
      screen("login/email-link", () => import("./routes/email-link.tsx")),
      screen("login/mobile", () => import("./routes/mobile-sign-in.tsx")),
      screen("login/email-link/verify", () => import("./routes/email-link-verify.tsx")),
      screen("signup", () => import("./routes/signup.tsx")),
      screen("forgot-password", () => import("./routes/forgot-password.tsx")),
      screen("reset-password", () => import("./routes/reset-password.tsx")),
      screen("checkout", () => import("./routes/checkout.tsx")),
      screen("orders", () => import("./routes/orders.tsx")),
      screen("orders/:number", () => import("./routes/order.tsx")),
      screen("guest-order/:number", () => import("./routes/guest-order.tsx")),
      screen("find-order", () => import("./routes/find-order.tsx")),
      screen("confirm-order/:number", () => import("./routes/confirm-order.tsx")),
      screen("settings", () => import("./routes/settings.tsx")),
      screen("questions", () => import("./routes/questions.tsx")),
      screen("admin/login", () => import("./routes/admin-login.tsx")),
      {
        path: "admin",
        lazy: () => import("./routes/admin-layout.tsx"),
        children: [
          screen(undefined, () => import("./routes/admin-dashboard.tsx")),
          screen("orders", () => import("./routes/admin-orders.tsx")),
          screen("orders/:number", () => import("./routes/admin-order.tsx")),
          screen("stock", () => import("./routes/admin-stock.tsx")),
          screen("shipping", () => import("./routes/admin-shipping.tsx")),
          screen("cod", () => import("./routes/admin-cod.tsx")),
          screen("cod/rules", () => import("./routes/admin-cod-rules.tsx")),
          screen("cod/returns", () => import("./routes/admin-cod-returns.tsx")),
          screen("cod-confirm", () => import("./routes/admin-cod-confirm.tsx")),
          screen("questions", () => import("./routes/admin-questions.tsx")),
          screen("reviews", () => import("./routes/admin-reviews.tsx")),
          screen("messages", () => import("./routes/admin-messages.tsx")),
          screen("products", () => import("./routes/admin-products.tsx")),
          screen("products/:slug", () => import("./routes/admin-product.tsx")),
          screen("discount-codes", () => import("./routes/admin-discount-codes.tsx")),
          screen("audit", () => import("./routes/admin-audit.tsx")),
          screen("shop", () => import("./routes/admin-shop.tsx")),
          screen("settings", () => import("./routes/admin-settings.tsx")),
          // The list, or with "new" or an id, the editor.
          screen("pages/:id?", () => import("./routes/admin-pages.tsx")),
          screen("combos", () => import("./routes/admin-combos.tsx")),
          screen("delivery", () => import("./routes/admin-delivery.tsx")),
          screen("tax", () => import("./routes/admin-tax.tsx")),
          screen("staff", () => import("./routes/admin-staff.tsx")),
        ],
      },
      screen("contact", () => import("./routes/contact.tsx")),
      screen("privacy", contentPage),
      screen("terms", contentPage),
      screen("cookie-policy", contentPage),
      screen("shipping-delivery", contentPage),
      screen("cancellation-refund", contentPage),
      // Not in the spec's route table, but the header links to it.
      screen("blog", () => import("./routes/blog.tsx")),
      screen("blog/:slug", () => import("./routes/blog-post.tsx")),
      // The spec: any other path shows the home page.
      screen("*", home),
    ],
  },
];

/**
 * Pages the server renders as complete HTML (web/entry-server.tsx): the same for every visitor, so
 * their loaders never need a session. The others (cart, account, admin) get the shell and render in
 * the browser, where their loaders see the visitor's cookies.
 */
export const SERVER_RENDERED_PATHS = new Set([
  "/",
  "product/:slug",
  "combo/:id",
  "blog",
  "blog/:slug",
  "contact",
  "privacy",
  "terms",
  "cookie-policy",
  "shipping-delivery",
  "cancellation-refund",
  "*",
]);
