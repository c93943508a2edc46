import type { ComponentType } from "react";
import type { ActionFunction, LoaderFunction, RouteObject } from "react-router";

export const ADMIN_ROUTE_ID = "admin";

/** A screen loaded on demand; its module exports Component and, where it needs data, loader (and action). */
type ScreenModule = {
  Component: ComponentType;
  loader?: LoaderFunction;
  action?: ActionFunction;
  ErrorBoundary?: ComponentType;
  handle?: unknown;
};
export const screen = (path: string | undefined, load: () => Promise<ScreenModule>): RouteObject =>
  path === undefined ? { index: true, lazy: load } : { path, lazy: load };
