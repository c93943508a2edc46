import type { Page } from "playwright-core";

/**
 * Counts a first-order journey as a shopper lives it: the screens (each new path the page shows), the fields
 * typed or chosen, and the seconds from the first screen to the order's page.
 */
export function measureJourney(page: Page) {
  const screens: string[] = [];
  let fields = 0;
  const started = Date.now();
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    const { pathname } = new URL(frame.url());
    // Redirects through the API (a confirmation link) are not screens the shopper sees.
    if (!pathname.startsWith("/api/") && screens.at(-1) !== pathname) screens.push(pathname);
  });
  return {
    /** One field filled in by the shopper. */
    field() {
      fields += 1;
    },
    result() {
      return { screens: screens.length, path: screens, fields, seconds: (Date.now() - started) / 1000 };
    },
  };
}
