import type { Page } from "playwright-core";
import { showColorScheme } from "./color-scheme.ts";
import { type ColorScheme, VIEWPORTS, type Viewport } from "./fixtures.ts";

type View = readonly [Viewport, ColorScheme];

/** Each of `viewports` in light, then dark: the order a loaded page is best shown in (a resize per width). */
export const viewsAt = (viewports: readonly Viewport[]): readonly View[] =>
  viewports.flatMap((viewport) => [[viewport, "light"] as const, [viewport, "dark"] as const]);

/** The four looks a screen is checked in: phone and desktop, light and dark. */
export const EVERY_VIEW = viewsAt(["phone", "desktop"]);

/**
 * One loaded page shown in each of `views` in turn: the window resized to the view's width (the layout is
 * CSS's, which follows the width live) and the system's colour scheme switched under it (`showColorScheme`),
 * then `check` run for that view. One page load for what took a context and a load per view. Left in the
 * last view.
 */
export async function inEachView(
  page: Page,
  views: readonly View[],
  check: (viewport: Viewport, colorScheme: ColorScheme) => Promise<void>,
) {
  for (const [viewport, colorScheme] of views) {
    await showView(page, viewport, colorScheme);
    await check(viewport, colorScheme);
  }
}

/** The window at `viewport`'s size and the system setting at `colorScheme`, the page showing it at rest. */
export async function showView(page: Page, viewport: Viewport, colorScheme: ColorScheme) {
  const size = VIEWPORTS[viewport];
  const now = page.viewportSize();
  if (now?.width !== size.width || now?.height !== size.height) await page.setViewportSize(size);
  await showColorScheme(page, colorScheme);
}
