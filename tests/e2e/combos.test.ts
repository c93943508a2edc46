import { describe, expect } from "vitest";
import { loadLazyImages, screenshot, scrollThrough, shoot } from "../fixtures.ts";
import { it } from "../shop-test.ts";

describe("the combos and gifting section", () => {
  it("shows the four bundles with their products, prices and savings, and opens each one", async ({
    page,
  }) => {
    await page.goto("/");
    await scrollThrough(page); // the section loads as it comes near
    const section = page.locator("#combos");
    await section.getByRole("heading", { name: "Combos & Gifting" }).waitFor();

    const cards = section.getByRole("article");
    expect(await cards.count()).toBe(4);
    const glow = cards.filter({ has: page.getByRole("heading", { name: "Glow Skincare Combo" }) });
    const text = await glow.textContent();
    for (const part of ["Most Popular", "₹1,199", "₹1,497", "Save ₹298", "Cleanse, treat, nourish"]) {
      expect(text).toContain(part);
    }
    expect(await glow.locator("s").textContent()).toContain("₹1,497");
    expect(
      await glow.getByRole("img").evaluateAll((images) => images.map((image) => image.getAttribute("alt"))),
    ).toEqual(["Face Glow Oil", "Face Wash Powder", "Skin Brightening Pack"]);
    // Round product images, never more than three.
    for (const card of await cards.all()) {
      const images = card.getByRole("img");
      expect(await images.count()).toBeLessThanOrEqual(3);
      expect(await images.first().evaluate((image) => getComputedStyle(image).borderRadius)).toMatch(/px|%/);
    }
    const summary = await cards.evaluateAll((articles) =>
      articles.map((article) => [
        article.querySelector("h3")?.textContent,
        article.querySelector("span")?.textContent,
      ]),
    );
    expect(Object.fromEntries(summary)).toEqual({
      "Glow Skincare Combo": "Most Popular",
      "Hair Growth Combo": "Best Seller",
      "Daily Wellness Combo": "New Launch",
      "Family Bath Combo": "Family Pack",
    });
    await section
      .getByText("All combos come in eco-friendly packaging. Free gift wrapping is available on request.")
      .waitFor();

    await section.scrollIntoViewIfNeeded();
    await loadLazyImages(page);
    await shoot(section, { path: "test-results/screenshots/home-combos-desktop.png" });

    // A click anywhere on the card opens the combo.
    const hair = cards.filter({ has: page.getByRole("heading", { name: "Hair Growth Combo" }) });
    await hair.click({ position: { x: 40, y: 200 } });
    await page.waitForURL("**/combo/haircare-combo");
    await page.goBack();
    await section.getByRole("link", { name: "Family Bath Combo" }).click();
    await page.waitForURL("**/combo/body-combo");
  });

  it("stacks the cards on a phone, in the dark too", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone", colorScheme: "dark" });
    await page.goto("/#combos");
    const section = page.locator("#combos");
    await section.getByRole("heading", { name: "Combos & Gifting" }).waitFor();
    const widths = await section
      .getByRole("article")
      .evaluateAll((articles) =>
        articles.map((article) => Math.round(article.getBoundingClientRect().width)),
      );
    expect(widths.every((width) => width > 300)).toBe(true);
    await loadLazyImages(page);
    await screenshot(page, "home-phone-dark");
  });
});
