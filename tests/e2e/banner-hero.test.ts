import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { shoot } from "../fixtures.ts";
import { pauseClock } from "../paused-clock.ts";
import { it } from "../shop-test.ts";

async function openHome(page: Page) {
  await pauseClock(page);
  await page.goto("/");
  await page.getByRole("heading", { name: "Best sellers" }).waitFor();
}

const currentSlide = (page: Page) =>
  page.locator("[aria-roledescription=slide][data-active]").getAttribute("aria-label");

describe("the promo banner", () => {
  it("has a minimise button a thumb can hit at 375 px: at least 44 x 44 (issue 30)", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/");
    const box = await page.getByRole("button", { name: "Minimise offer banner" }).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
  });

  it("puts every header and hero control in a thumb's reach at 375 px: 44 px tall, 44 wide but the slide dots", async ({
    openPage,
  }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const header = page.getByRole("banner");
    const controls = [
      header.getByRole("button", { name: "Search products" }),
      header.getByRole("link", { name: /^Cart/ }),
      header.getByRole("button", { name: "Open menu" }),
      page.getByRole("button", { name: "Previous slide" }),
      page.getByRole("button", { name: "Next slide" }),
      page.getByRole("button", { name: "Stop automatic slide show" }),
    ];
    for (const control of controls) {
      const box = await control.boundingBox();
      const label = (await control.getAttribute("aria-label")) ?? (await control.textContent());
      expect(box?.height ?? 0, `${label} is ${box?.height} px tall`).toBeGreaterThanOrEqual(44);
      expect(box?.width ?? 0, `${label} is ${box?.width} px wide`).toBeGreaterThanOrEqual(44);
    }
    // The dots sit in one row with the three controls: 44 px tall, 36 px wide beside each other (no gap).
    const dots = page.getByRole("button", { name: /^Slide \d/ });
    expect(await dots.count()).toBeGreaterThan(1);
    for (const dot of await dots.all()) {
      const box = await dot.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(box?.width).toBeGreaterThanOrEqual(36);
    }
  });

  it("announces GLOW20, minimises to a button, and comes back after 10 seconds", async ({ page }) => {
    await openHome(page);
    const banner = page.getByRole("region", { name: "Offer" });
    expect(await banner.textContent()).toContain(
      "Flat 20% off all products for a limited time. Use code GLOW20",
    );

    await banner.getByRole("button", { name: "Minimise offer banner" }).click();
    const compact = page.getByRole("button", { name: "20% OFF - Click to expand" });
    await compact.waitFor();
    expect(await banner.count()).toBe(0);
    // Keyboard users keep their place.
    expect(await compact.evaluate((element) => element === document.activeElement)).toBe(true);
    await shoot(page, { path: "test-results/screenshots/home-banner-minimised-desktop.png" });

    await page.clock.runFor(9999);
    expect(await compact.isVisible()).toBe(true);
    await page.clock.runFor(1);
    await banner.waitFor();
    expect(await compact.count()).toBe(0);
  });

  it("expands at once on click, and cannot be dismissed for good", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await openHome(page);
    const banner = page.getByRole("region", { name: "Offer" });
    for (let round = 0; round < 2; round++) {
      await banner.getByRole("button", { name: "Minimise offer banner" }).click();
      await page.getByRole("button", { name: "20% OFF - Click to expand" }).click();
      await banner.waitFor();
    }
    expect(await page.getByRole("button", { name: /close|dismiss/i }).count()).toBe(0);
  });
});

describe("the hero", () => {
  it("has 5 slides that rotate every 8000 ms", async ({ page }) => {
    await openHome(page);
    expect(await page.locator("[aria-roledescription=slide]").count()).toBe(5);
    expect(await currentSlide(page)).toBe("1 of 5");

    await page.clock.runFor(7999);
    expect(await currentSlide(page)).toBe("1 of 5");
    await page.clock.runFor(1);
    await expect.poll(() => currentSlide(page)).toBe("2 of 5");
    for (const next of ["3 of 5", "4 of 5", "5 of 5", "1 of 5"]) {
      await page.clock.runFor(8000);
      await expect.poll(() => currentSlide(page)).toBe(next);
    }
  });

  it("pauses while hovered or focused, and when reduced motion is asked for", async ({
    shop,
    browser,
    context,
    page,
  }) => {
    await openHome(page);
    const hero = page.getByRole("region", { name: "Highlights" });

    await hero.hover();
    await page.clock.runFor(20_000);
    expect(await currentSlide(page)).toBe("1 of 5");
    await page.mouse.move(5, 5); // over the banner, away from the hero
    await page.clock.runFor(8000);
    await expect.poll(() => currentSlide(page)).toBe("2 of 5");

    await page.mouse.move(5, 5);
    await hero.getByRole("button", { name: "Next slide" }).focus();
    await page.clock.runFor(20_000);
    expect(await currentSlide(page)).toBe("2 of 5");
    await page.keyboard.press("Enter");
    await expect.poll(() => currentSlide(page)).toBe("3 of 5");
    await page.getByRole("heading", { name: "Best sellers" }).focus();
    await page.locator("#best-sellers").focus();
    await page.clock.runFor(8000);
    await expect.poll(() => currentSlide(page)).toBe("4 of 5");

    // The pause button stops it for good.
    await hero.getByRole("button", { name: "Stop automatic slide show" }).click();
    await page.locator("#best-sellers").focus();
    await page.mouse.move(5, 5);
    await page.clock.runFor(20_000);
    expect(await currentSlide(page)).toBe("4 of 5");
    await context.close();

    const still = await browser.newContext({ baseURL: shop.url, reducedMotion: "reduce" });
    const calm = await still.newPage();
    await openHome(calm);
    await calm.clock.runFor(30_000);
    expect(await currentSlide(calm)).toBe("1 of 5");
    await still.close();
  });

  it("Shop Now scrolls to the featured products; Learn More opens the About dialog", async ({ openPage }) => {
    const page = await openPage({ colorScheme: "dark" });
    await openHome(page);
    const hero = page.getByRole("region", { name: "Highlights" });
    const slide = hero.locator("[data-active]");

    await slide.getByRole("button", { name: "Learn More" }).click();
    const about = page.getByRole("dialog", { name: "About Prakriti Naturals" });
    // The dialog is downloaded on this first open, and React reveals it on a timer: the paused clock must move.
    await expect
      .poll(async () => {
        await page.clock.runFor(100);
        return about.isVisible();
      })
      .toBe(true);
    await shoot(page, { path: "test-results/screenshots/home-about-dialog-desktop-dark.png" });
    // Focus stays inside: Tab cycles within the dialog.
    for (let press = 0; press < 4; press++) {
      await page.keyboard.press("Tab");
      expect(await about.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await about.waitFor({ state: "hidden" });

    await slide.getByRole("link", { name: "Shop Now" }).click();
    await expect
      .poll(() =>
        page.locator("#featured").evaluate((section) => {
          const headerBottom = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
          const top = section.getBoundingClientRect().top;
          return top >= headerBottom - 1 && top < headerBottom + 40;
        }),
      )
      .toBe(true);
  });
});
