import axe from "axe-core";
import type { BrowserContext } from "playwright-core";
import { describe, expect } from "vitest";
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

describe.each(["light", "dark"] as const)("accessibility in the %s theme", (colorScheme) => {
  // One context for the theme's pages, as one visitor going from page to page.
  let context: BrowserContext;
  it.beforeAll(async ({ browser, shop }) => {
    context = await browser.newContext({
      baseURL: shop.url,
      viewport: VIEWPORTS.desktop,
      colorScheme,
      reducedMotion: "reduce", // colours are checked at rest, not halfway through a transition
      bypassCSP: true, // the shop's CSP rightly refuses inline scripts, and axe is injected as one
    });
    // axe is sent to the browser once for the theme's pages, and is in each of them from its start.
    await context.addInitScript({ content: axe.source });
  });
  it.afterAll(() => context?.close());

  it.each(PATHS)("%s has no serious or critical axe violations", async (path) => {
    const page = await context.newPage();
    await page.goto(path);
    // The page is checked once the app has started on it and its heading is drawn (a page that sends a
    // signed-out visitor elsewhere has arrived there by then), not after a wait for the network to fall quiet.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.locator("main h1").first().waitFor();
    await scrollThrough(page); // the footer and the home page's lower sections load as they come near
    await expect(
      page.evaluate(() => document.documentElement.classList.contains("dark")),
      "the theme follows the system setting",
    ).resolves.toBe(colorScheme === "dark");

    // Every rule is run and every violation reported in full; what passed is not gathered node by node.
    const results = await page.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run({ resultTypes: ["violations"] }),
    );
    const failing = results.violations
      .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""))
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        where: violation.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}: ${node.failureSummary}`),
      }));
    const minor = results.violations.filter((violation) => !FAILING_IMPACTS.has(violation.impact ?? ""));
    if (minor.length > 0) {
      console.log(`${path} (${colorScheme}): minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(", ")}`);
    }
    expect(failing).toEqual([]);
    await page.close();
  });
});
