import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import {
  createBrowserRouter,
  type HydrationState,
  matchRoutes,
  type RouteObject,
  RouterProvider,
} from "react-router";
import { HYDRATION_DATA_ID } from "./lib/hydration.ts";
import { discoverRoutes, routes } from "./router.tsx";
import "./styles.css";

/**
 * The server rendered this page (web/entry-server.tsx): the screens it used are downloaded before
 * hydrating, so the first render matches the HTML instead of showing the loading spinner.
 */
async function loadMatchedScreens() {
  const lazyMatches = matchRoutes(routes, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const load = route.lazy as () => Promise<Partial<RouteObject>>;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}

async function start(container: HTMLElement) {
  const data = document.getElementById(HYDRATION_DATA_ID)?.textContent;
  if (!data) {
    // The shell of a page rendered in the browser only (cart, account, admin).
    createRoot(container).render(
      <StrictMode>
        <RouterProvider router={createBrowserRouter(routes, { patchRoutesOnNavigation: discoverRoutes })} />
      </StrictMode>,
    );
    return;
  }
  await loadMatchedScreens();
  const router = createBrowserRouter(routes, {
    hydrationData: JSON.parse(data) as HydrationState,
    patchRoutesOnNavigation: discoverRoutes,
  });
  // In a transition, hydration yields to the browser every few milliseconds instead of holding the main
  // thread for the whole page: a tap or scroll during it is answered.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  });
}

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
void start(root);
