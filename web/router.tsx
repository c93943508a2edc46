import type { ComponentType } from "react";
import { createBrowserRouter, type LoaderFunction, type RouteObject } from "react-router";
import { Spinner } from "./components/spinner.tsx";
import { RootLayout } from "./routes/root-layout.tsx";

/** A screen loaded on demand; its module exports Component and, where it needs data, loader. */
type ScreenModule = { Component: ComponentType; loader?: LoaderFunction };
const screen = (path: string | undefined, load: () => Promise<ScreenModule>): RouteObject =>
  path === undefined ? { index: true, lazy: load } : { path, lazy: load };

const home = () => import("./routes/home.tsx");
const comingSoon = () => import("./routes/coming-soon.tsx");

export const routes: RouteObject[] = [
  {
    path: "/",
    Component: RootLayout,
    HydrateFallback: Spinner,
    children: [
      screen(undefined, home),
      screen("product/:slug", () => import("./routes/product.tsx")),
      screen("combo/:id", () => import("./routes/combo.tsx")),
      screen("cart", comingSoon),
      screen("login", comingSoon),
      screen("signup", comingSoon),
      screen("checkout", () => import("./routes/checkout.tsx")),
      screen("orders", () => import("./routes/orders.tsx")),
      screen("orders/:number", () => import("./routes/order.tsx")),
      screen("settings", comingSoon),
      screen("questions", comingSoon),
      screen("admin/login", comingSoon),
      screen("admin", () => import("./routes/admin-home.tsx")),
      screen("admin/orders", () => import("./routes/admin-orders.tsx")),
      screen("admin/orders/:number", () => import("./routes/admin-order.tsx")),
      screen("admin/stock", () => import("./routes/admin-stock.tsx")),
      screen("admin/questions", comingSoon),
      screen("admin/reviews", comingSoon),
      screen("contact", comingSoon),
      screen("privacy", comingSoon),
      screen("terms", comingSoon),
      screen("cookie-policy", comingSoon),
      screen("shipping-delivery", comingSoon),
      screen("cancellation-refund", comingSoon),
      // The spec: any other path shows the home page.
      screen("*", home),
    ],
  },
];

export const router = createBrowserRouter(routes);
