import { describe, expect } from "vitest";
import { loadLazyImages, screenshot, scrollThrough } from "../fixtures.ts";
import { it } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

describe("the landing page's layout", () => {
  it("has the spec's sections in the spec's order", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    // The lower sections and the footer load as they come near.
    await scrollThrough(page);
    const order = await page.evaluate(() => {
      const marks: [string, Element | null][] = [
        ["banner", document.querySelector('[data-testid="promo-banner"]')],
        ["header", document.querySelector("header")],
        ["hero", document.querySelector('[aria-roledescription="carousel"]')],
        ["best sellers", document.getElementById("best-sellers")],
        ["search", document.getElementById("search-heading")],
        ["featured", document.getElementById("featured")],
        ["combos", document.getElementById("combos")],
        ["about", document.getElementById("about")],
        ["contact", document.getElementById("contact")],
        ["footer", document.querySelector("footer")],
      ];
      return marks
        .filter(([, element]) => element)
        .sort(([, a], [, b]) =>
          a && b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
        )
        .map(([name]) => name);
    });
    expect(order).toEqual([
      "banner",
      "header",
      "hero",
      "best sellers",
      "search",
      "featured",
      "combos",
      "about",
      "contact",
      "footer",
    ]);
  });

  it("fits 375, 768 and 1280 px without sideways scrolling, in light and dark", async ({ page }) => {
    // One load shown at each width and in each theme; a new width may ask for other pictures, so each view
    // scrolls through the page again before it is looked at.
    await page.goto("/");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    await inEachView(page, viewsAt(["phone", "tablet", "desktop"]), async (viewport, colorScheme) => {
      await loadLazyImages(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${viewport} ${colorScheme}`).toBeLessThanOrEqual(0);
      expect(
        await page.getByRole("main").getByRole("combobox", { name: "Search products" }).isVisible(),
      ).toBe(viewport !== "phone");
      await screenshot(page, `home-full-${viewport}-${colorScheme}`);
    });
  });
});
