import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { loadLazyImages, screenshot } from "../fixtures.ts";
import { it } from "../shop-test.ts";

const grid = (page: Page) => page.locator("#featured");
const cardNames = (page: Page) =>
  grid(page).getByRole("list", { name: "Products" }).locator("h3").allTextContents();
const search = (page: Page) => new URL(page.url()).searchParams;

describe("browsing and filtering the featured products", () => {
  it("filters by category and subcategory, sorts, pages, and keeps it all in the URL", async ({
    context,
    page,
  }) => {
    await page.goto("/");
    await grid(page).getByRole("heading", { name: "Featured products" }).waitFor();

    // 8 per page, name A to Z by default, 21 products over 3 pages.
    await expect
      .poll(() => cardNames(page))
      .toEqual([
        "ABC Malt",
        "Badam Mix",
        "Bath Powder",
        "Beetroot Face Pack",
        "Chilli Powder",
        "Coconut Oil",
        "Curry Leaves Powder",
        "Face Glow Oil",
      ]);
    await grid(page).getByText("Showing 1–8 of 21 products").waitFor();
    const pages = grid(page).getByRole("navigation", { name: "Product pages" });
    await expect
      .poll(() => pages.getByRole("button", { name: /^Page \d$/ }).allTextContents())
      .toEqual(["1", "2", "3"]);

    await pages.getByRole("button", { name: "Page 3" }).click();
    await page.waitForURL(/page=3/);
    await expect.poll(() => cardNames(page)).toHaveLength(5);
    await expect
      .poll(() => pages.getByRole("button", { name: "Page 3" }).getAttribute("aria-current"))
      .toBe("page");

    // Sorting goes back to page 1.
    const sort = grid(page).getByLabel("Sort by");
    expect(await sort.locator("option").allTextContents()).toEqual([
      "Price: low to high",
      "Price: high to low",
      "Name: A to Z",
      "Name: Z to A",
    ]);
    await sort.selectOption("price-high");
    await page.waitForURL(
      (url) => url.searchParams.get("sort") === "price-high" && !url.searchParams.has("page"),
    );
    await expect
      .poll(async () => (await cardNames(page)).slice(0, 2))
      .toEqual(["Hair Conditioning Pack", "Kids Bath Powder"]);

    // Filters: category, then a subcategory; each change is page 1 again.
    await pages.getByRole("button", { name: "Page 2" }).click();
    await page.waitForURL(/page=2/);
    await grid(page).getByRole("button", { name: "Filters" }).click();
    const panel = grid(page).locator("fieldset");
    await panel.getByText("Haircare", { exact: true }).click();
    await page.waitForURL(
      (url) => url.searchParams.get("category") === "haircare" && !url.searchParams.has("page"),
    );
    await expect
      .poll(() => cardNames(page))
      .toEqual([
        "Hair Conditioning Pack",
        "Hair Wash Powder",
        "Natural Hair Dye",
        "Hair Growth Oil",
        "Hair Growth Serum",
      ]);
    expect(await panel.getByRole("radio").count()).toBe(5 + 5); // All + 4 categories, All + 4 subcategories
    await panel.getByText("Hair Pack", { exact: true }).click();
    await page.waitForURL(/subcategory=Hair\+Pack/);
    await expect.poll(() => cardNames(page)).toEqual(["Hair Conditioning Pack", "Hair Wash Powder"]);
    await screenshot(page, "home-grid-filtered-desktop");

    // A shared link reopens the same view.
    const shared = page.url();
    const other = await context.newPage();
    await other.goto(shared);
    await grid(other).getByText("Showing 1–2 of 2 products").waitFor();
    await expect.poll(() => cardNames(other)).toEqual(["Hair Conditioning Pack", "Hair Wash Powder"]);
    expect(await grid(other).getByLabel("Sort by").inputValue()).toBe("price-high");
    expect(await grid(other).getByRole("radio", { name: "Hair Pack" }).isChecked()).toBe(true);
  });

  it("limits the price with the slider and the editable upper bound", async ({ page }) => {
    await page.goto("/?page=2");
    await grid(page).getByRole("button", { name: "Filters" }).click();
    const slider = grid(page).getByRole("slider", { name: "Highest price" });
    // From the cheapest product (₹250) to the dearest (₹699); the default range is ₹0 to ₹5,000.
    expect(await slider.getAttribute("min")).toBe("250");
    expect(await slider.getAttribute("max")).toBe("699");
    await grid(page).getByText("₹0 to ₹5,000").waitFor();

    await slider.fill("300");
    await page.waitForURL(
      (url) => url.searchParams.get("maxPrice") === "300" && !url.searchParams.has("page"),
    );
    await expect.poll(() => cardNames(page)).toEqual(["Curry Leaves Powder", "Moringa Powder"]);

    const upper = grid(page).getByLabel("Up to ₹");
    await upper.fill("360");
    await page.waitForURL((url) => url.searchParams.get("maxPrice") === "360");
    await expect
      .poll(() => cardNames(page))
      .toEqual(["Coconut Oil", "Curry Leaves Powder", "Moringa Powder"]);
    await expect.poll(() => slider.inputValue()).toBe("360");
  });

  it("says so when nothing matches, and clearing brings everything back", async ({ page }) => {
    await page.goto("/?category=nutrition&subcategory=Supplements&maxPrice=300");
    await grid(page).getByText("No products found", { exact: true }).waitFor();
    await grid(page).getByText("Try adjusting your filters or check back later").waitFor();
    await screenshot(page, "home-grid-empty-desktop");
    await grid(page).getByRole("button", { name: "Clear filters" }).click();
    await grid(page).getByText("Showing 1–8 of 21 products").waitFor();
    expect(search(page).toString()).toBe("");
  });

  it("shows 4 per page below 768 px, with at most 5 page buttons", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/");
    await grid(page).getByText("Showing 1–4 of 21 products").waitFor();
    await expect
      .poll(() => cardNames(page))
      .toEqual(["ABC Malt", "Badam Mix", "Bath Powder", "Beetroot Face Pack"]);
    const pages = grid(page).getByRole("navigation", { name: "Product pages" });
    await expect
      .poll(() => pages.getByRole("button", { name: /^Page \d$/ }).allTextContents())
      .toEqual(["1", "2", "3", "4", "5"]);
    await pages.getByRole("button", { name: "Page 6" }).waitFor({ state: "detached" });
    for (const next of [2, 3, 4]) {
      await pages.getByRole("button", { name: "Next page" }).click();
      await expect.poll(() => pages.locator("[aria-current=page]").textContent()).toBe(String(next));
    }
    await page.waitForURL(/page=4/);
    await expect
      .poll(() => pages.getByRole("button", { name: /^Page \d$/ }).allTextContents())
      .toEqual(["2", "3", "4", "5", "6"]);
    await expect
      .poll(() => cardNames(page))
      .toEqual(["Hair Wash Powder", "Immunity Booster", "Kids Bath Powder", "Moringa Powder"]);
    await loadLazyImages(page);
    await screenshot(page, "home-phone-light");
  });

  it("brings the product named by ?buy= into view on its page and highlights it", async ({ page }) => {
    await page.goto("/?buy=Sathu%20Maavu");
    await page.waitForURL((url) => url.searchParams.get("page") === "3" && !url.searchParams.has("buy"));
    const card = page.locator("#product-sathu-maavu");
    await card.and(page.locator("[data-highlighted]")).waitFor();
    expect(
      await card.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    await screenshot(page, "home-buy-highlight-desktop");
    // The highlight is brief.
    await page
      .locator("#product-sathu-maavu[data-highlighted]")
      .waitFor({ state: "detached", timeout: 5000 });

    // A product hidden by the current filters: the filters make way for it.
    await page.goto("/?category=skincare&buy=moringa%20powder");
    await page.waitForURL((url) => !url.searchParams.has("buy") && !url.searchParams.has("category"));
    await page.locator("#product-moringa-powder[data-highlighted]").waitFor();
  });

  it("reserves room for every image, so nothing shifts as they load", async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto("/");
    await grid(page).getByRole("heading", { name: "Featured products" }).waitFor();
    await loadLazyImages(page);
    const unsized = await page.evaluate(() =>
      [...document.images]
        .filter((image) => !image.getAttribute("width") || !image.getAttribute("height"))
        .map((image) => image.src),
    );
    expect(unsized).toEqual([]);
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
    expect(shifts).toBeLessThan(0.01);
  });
});
