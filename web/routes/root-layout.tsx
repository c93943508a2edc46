import { lazy, useEffect } from "react";
import { Link, Outlet, ScrollRestoration, useMatches, useNavigation, useRouteError } from "react-router";
import { BrandStyle } from "../components/brand-style.tsx";
import { DocumentHead } from "../components/document-head.tsx";
import { FocusPageHeading } from "../components/focus-page-heading.tsx";
import { LoadWhenNear } from "../components/load-when-near.tsx";
import { Spinner } from "../components/spinner.tsx";
import { Toaster } from "../components/toast.tsx";

// Below the fold on every page: the footer and its pop-ups load as the visitor nears them, off the first bundle.
const SiteFooter = lazy(() =>
  import("../features/footer/site-footer.tsx").then((m) => ({ default: m.SiteFooter })),
);

import { buttonClass } from "../components/button.tsx";
import { SiteHeader } from "../features/header/site-header.tsx";
import type { RouteHandle } from "../lib/document-head.ts";
import type { KeptTaps } from "../lib/kept-taps.ts";
import { takeShopConfigChange } from "../lib/shop-config.ts";
import { loadShopData } from "../lib/shop-data.ts";

/**
 * Ends the app loader's keeping of taps (the page's buttons answer from now on) and carries out what it kept.
 * The code that does so is fetched only when a tap was kept: most visits have none, and every page would
 * carry it.
 */
function takeKeptTaps() {
  const take = window.__takeKeptTaps;
  if (!take) return;
  window.__takeKeptTaps = undefined;
  const kept: KeptTaps = take();
  if (kept.taps.length === 0 && kept.typed.length === 0) return;
  void import("../lib/kept-taps.ts").then((module) => module.carryOutKeptTaps(kept));
}

/** The catalogue, combos and shop details, fetched once for every page (see shouldRevalidate). */
export const loader = loadShopData;

/**
 * None of it changes while a visitor browses; navigating never refetches it. Only the owner's own save of
 * the shop's settings or details (forgetShopConfig) makes the next revalidation fetch it again.
 */
export const shouldRevalidate = () => takeShopConfigChange();

export function RootLayout() {
  const navigation = useNavigation();
  // The server's HTML shows before it responds to clicks: this marks the moment it does (tests wait for it).
  // Taps taken before it (by the app loader's inline script) are carried out then.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
    takeKeptTaps();
  }, []);
  const matches = useMatches();
  const fullWidth = matches.some((match) => (match.handle as RouteHandle | undefined)?.fullWidth);
  if (matches.some((match) => (match.handle as RouteHandle | undefined)?.ownFrame)) {
    return (
      <>
        <BrandStyle />
        <Outlet />
        {navigation.state === "loading" && <Spinner floating label="Loading page" />}
        <Toaster />
        <ScrollRestoration />
        <DocumentHead />
        <FocusPageHeading />
      </>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-4 py-3 text-stone-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <BrandStyle />
      <SiteHeader />
      {navigation.state === "loading" && <Spinner floating label="Loading page" />}
      <main
        id="main"
        tabIndex={-1}
        className={
          fullWidth
            ? "w-full flex-1 focus:outline-none"
            : "mx-auto w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none"
        }
      >
        <Outlet />
      </main>
      <LoadWhenNear placeholderClassName="min-h-96" last>
        <SiteFooter />
      </LoadWhenNear>
      <Toaster />
      <ScrollRestoration />
      <DocumentHead />
      <FocusPageHeading />
    </div>
  );
}

/** When the shop's data cannot be loaded there is nothing to show but an honest message and a way out. */
export function RootError() {
  const error = useRouteError();
  console.error(error);
  // No screen to carry them out on, but the page's own buttons must answer from now on.
  useEffect(() => {
    takeKeptTaps();
  }, []);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center px-4 text-center">
      <h1 className="font-serif text-2xl font-semibold">The shop could not be loaded</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">
        Please check your connection and try again in a moment.
      </p>
      <Link to="/" reloadDocument className={`${buttonClass({ variant: "brand" })} mt-6`}>
        Try again
      </Link>
    </main>
  );
}
