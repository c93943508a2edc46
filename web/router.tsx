import type { PatchRoutesOnNavigationFunction, RouteObject } from "react-router";
import { Spinner } from "./components/spinner.tsx";
import { ADMIN_ROUTE_ID, screen } from "./lib/screen-route.ts";
import { ROOT_ROUTE_ID } from "./lib/shop-data.ts";
import { RootError, RootLayout, loader as rootLoader, shouldRevalidate } from "./routes/root-layout.tsx";

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
        id: ADMIN_ROUTE_ID,
        path: "admin",
        lazy: () => import("./routes/admin-layout.tsx"),
        // Staff's other screens are found when first opened (discoverRoutes): their table is not part of
        // every shopper's first download.
        children: [screen(undefined, () => import("./routes/admin-dashboard.tsx"))],
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

/** Staff's screens beyond the dashboard, added to the admin route the first time a path under it is opened. */
export const discoverRoutes: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (!/^\/admin\/./.test(path) || adminScreensAdded) return;
  const { adminScreens } = await import("./routes/admin-screens.ts");
  if (adminScreensAdded) return;
  adminScreensAdded = true;
  patch(ADMIN_ROUTE_ID, adminScreens);
};
let adminScreensAdded = false;

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
