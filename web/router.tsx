import type { ComponentType } from "react";
import {
  type ActionFunction,
  createBrowserRouter,
  type LoaderFunction,
  type RouteObject,
} from "react-router";
import { Spinner } from "./components/spinner.tsx";
import { RootLayout } from "./routes/root-layout.tsx";

/** A screen loaded on demand; its module exports Component and, where it needs data, loader (and action). */
type ScreenModule = {
  Component: ComponentType;
  loader?: LoaderFunction;
  action?: ActionFunction;
  ErrorBoundary?: ComponentType;
};
const screen = (path: string | undefined, load: () => Promise<ScreenModule>): RouteObject =>
  path === undefined ? { index: true, lazy: load } : { path, lazy: load };

const home = () => import("./routes/home.tsx");
const comingSoon = () => import("./routes/coming-soon.tsx");
const comingSoonSignedIn = () => import("./routes/coming-soon-signed-in.tsx");

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
      screen("login", () => import("./routes/login.tsx")),
      screen("login/email-link", () => import("./routes/email-link.tsx")),
      screen("login/email-link/verify", () => import("./routes/email-link-verify.tsx")),
      screen("signup", () => import("./routes/signup.tsx")),
      screen("forgot-password", () => import("./routes/forgot-password.tsx")),
      screen("reset-password", () => import("./routes/reset-password.tsx")),
      screen("orders", comingSoonSignedIn),
      screen("settings", () => import("./routes/settings.tsx")),
      screen("questions", comingSoonSignedIn),
      screen("admin/login", () => import("./routes/admin-login.tsx")),
      {
        path: "admin",
        lazy: () => import("./routes/admin-layout.tsx"),
        children: [
          screen(undefined, () => import("./routes/admin-dashboard.tsx")),
          screen("orders", comingSoon),
          screen("questions", comingSoon),
          screen("reviews", comingSoon),
          screen("messages", comingSoon),
        ],
      },
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
