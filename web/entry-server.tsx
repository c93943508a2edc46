/**
 * Server rendering of the public pages, built by `vite build --ssr` into dist-server/ and called by
 * server/pages/pages.ts. The same route table and loaders as the browser: the loaders' API calls go
 * through the transport the server sets (Hono's app.request, in-process, with no visitor cookies).
 */
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  type NonIndexRouteObject,
  type RouteObject,
  StaticRouterProvider,
  type UIMatch,
} from "react-router";
import { type ApiTransport, setApiTransport } from "./lib/api.ts";
import { describePage, headTags, type PageMeta, renderHeadHtml, scriptJson } from "./lib/document-head.ts";
import { HYDRATION_DATA_ID } from "./lib/hydration.ts";
import { ADMIN_ROUTE_ID } from "./lib/screen-route.ts";
import type { ShopData } from "./lib/shop-data.ts";
import { toJsonLd } from "./lib/structured-data.ts";
import { routes as browserRoutes, SERVER_RENDERED_PATHS } from "./router.tsx";
import { adminScreens } from "./routes/admin-screens.ts";

export type RenderedPage =
  | { kind: "shell" }
  | { kind: "redirect"; response: Response }
  | {
      kind: "page";
      status: number;
      /** <title> and the page's meta, link and JSON-LD tags. */
      head: string;
      /** The markup inside #root. */
      body: string;
      /** After #root: the loaders' data, for hydration without fetching it again. */
      data: string;
      meta: PageMeta;
    };

/** The browser finds staff's screens when one is opened (discoverRoutes); the server knows them all from the start. */
const routes = browserRoutes.map(function withAdminScreens(route): RouteObject {
  if (route.index === true || !route.children) return route;
  const children = route.children.map(withAdminScreens);
  const branch: NonIndexRouteObject = route;
  return { ...branch, children: route.id === ADMIN_ROUTE_ID ? [...children, ...adminScreens] : children };
});

const handler = createStaticHandler(routes);

export function setupRendering(transport: ApiTransport) {
  setApiTransport(transport);
}

/** Whether this path is one of the pages every visitor gets the same HTML of. */
export function isServerRendered(pathname: string): boolean {
  const leaf = matchRoutes(routes, pathname)?.at(-1);
  return leaf?.route.path !== undefined
    ? SERVER_RENDERED_PATHS.has(leaf.route.path)
    : leaf?.route.index === true && leaf.pathname === "/"; // home, not the index of /admin
}

/** Renders `url` for an anonymous visitor: the request carries no cookies and no headers of the visitor's. */
export async function renderPage(url: URL): Promise<RenderedPage> {
  if (!isServerRendered(url.pathname)) return { kind: "shell" };
  const context = await handler.query(new Request(url));
  if (context instanceof Response) return { kind: "redirect", response: context };
  // A failed loader (the API down): the shell tries again in the browser, with the shop's error page.
  if (context.errors) return { kind: "shell" };

  const router = createStaticRouter(handler.dataRoutes, context);
  const body = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  const matches: UIMatch[] = context.matches.map((match) => ({
    id: match.route.id,
    pathname: match.pathname,
    params: match.params,
    data: context.loaderData[match.route.id],
    loaderData: context.loaderData[match.route.id],
    handle: match.route.handle,
  }));
  const meta = describePage(matches, url.pathname);
  const shop = context.loaderData.root as ShopData;
  const hydration = { loaderData: context.loaderData, actionData: null, errors: null };
  return {
    kind: "page",
    status: context.statusCode,
    head: renderHeadHtml(
      meta,
      headTags(meta, shop.config.publicUrl, url.pathname, shop.config.shopName),
      toJsonLd(meta.structuredData ?? [], shop.config),
    ),
    body,
    data: `<script type="application/json" id="${HYDRATION_DATA_ID}">${scriptJson(hydration)}</script>`,
    meta,
  };
}
