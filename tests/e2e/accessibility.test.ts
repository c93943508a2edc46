import axe from "axe-core";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect } from "vitest";
import { showColorScheme } from "../color-scheme.ts";
import { scrollThrough, VIEWPORTS } from "../fixtures.ts";
import { it } from "../shop-test.ts";

/** Every route of the specification's table, the blog, and the pages shown for unknown ids. */
const PATHS = [
  "/",
  "/product/face-glow-oil",
  "/combo/skincare-combo",
  "/cart",
  "/login",
  "/signup",
  "/orders",
  "/admin/orders",
  "/admin/login",
  "/settings",
  "/questions",
  "/admin/questions",
  "/admin/reviews",
  "/contact",
  "/privacy",
  "/terms",
  "/cookie-policy",
  "/shipping-delivery",
  "/cancellation-refund",
  "/blog",
  "/blog/henna-indigo-hair-dye-at-home",
  "/product/no-such-product",
  "/combo/no-such-combo",
  "/blog/no-such-article",
];

const FAILING_IMPACTS = new Set(["serious", "critical"]);

// One tab for every page, as one visitor going from page to page: each path is loaded into it from the server
// (a new document, not the app's own navigation), and the renderer and what it has compiled are kept.
let context: BrowserContext;
let tab: Page;
it.beforeAll(async ({ browser, shop }) => {
  context = await browser.newContext({
    baseURL: shop.url,
    viewport: VIEWPORTS.desktop,
    colorScheme: "light",
    reducedMotion: "reduce", // colours are checked at rest, not halfway through a transition
    bypassCSP: true, // the shop's CSP rightly refuses inline scripts, and axe is injected as one
  });
  // axe is sent to the browser once, and is in every page from its start.
  await context.addInitScript({ content: axe.source });
  tab = await context.newPage();
});
it.afterAll(() => context?.close());

describe.each(PATHS)("accessibility of %s", (path) => {
  // The page is loaded once and checked in both themes: the dark check switches the system setting under
  // the page the light check loaded (the page follows it live), so the two see the same page, once loaded.
  let loaded = false;
  const page = async () => {
    if (loaded) return tab;
    await tab.goto(path);
    // Checked once the app has started on the page and its heading is drawn (a page that sends a signed-out
    // visitor elsewhere has arrived there by then), not after a wait for the network to fall quiet.
    await tab.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await tab.locator("main h1").first().waitFor();
    await scrollThrough(tab); // the footer and the home page's lower sections load as they come near
    loaded = true;
    return tab;
  };

  it.each(["light", "dark"] as const)(
    "has no serious or critical axe violations in the %s theme",
    async (colorScheme) => {
      const shown = await page();
      await showColorScheme(shown, colorScheme);

      // Every rule is run and every violation reported in full; what passed is not gathered node by node.
      const results = await shown.evaluate(() =>
        (window as unknown as { axe: typeof axe }).axe.run({ resultTypes: ["violations"] }),
      );
      const failing = results.violations
        .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""))
        .map((violation) => ({
          rule: violation.id,
          impact: violation.impact,
          help: violation.help,
          where: violation.nodes
            .slice(0, 5)
            .map((node) => `${node.target.join(" ")}: ${node.failureSummary}`),
        }));
      const minor = results.violations.filter((violation) => !FAILING_IMPACTS.has(violation.impact ?? ""));
      if (minor.length > 0) {
        console.log(
          `${path} (${colorScheme}): minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(", ")}`,
        );
      }
      expect(failing).toEqual([]);
    },
  );
});
