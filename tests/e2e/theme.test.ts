import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { screenshot } from "../fixtures.ts";
import { it } from "../shop-test.ts";

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

describe("light and dark themes", () => {
  it("follows the system setting on a first visit", async ({ openContext }) => {
    for (const colorScheme of ["dark", "light"] as const) {
      const context = await openContext({ colorScheme });
      const page = await context.newPage();
      await page.goto("/");
      await page.getByRole("heading", { name: "Best sellers" }).waitFor();
      expect(await isDark(page)).toBe(colorScheme === "dark");
      expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
      await context.close();
    }
  });

  it("toggles from the header and remembers the choice across reloads", async ({ openPage }) => {
    const page = await openPage({ colorScheme: "light" });
    await page.goto("/");
    const toggle = page.getByRole("banner").getByRole("button", { name: "Switch to dark theme" });
    await toggle.click();
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe("dark");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    await page.reload();
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
    await screenshot(page, "home-desktop-dark");

    await page.getByRole("banner").getByRole("button", { name: "Switch to light theme" }).click();
    expect(await isDark(page)).toBe(false);
    await page.reload();
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });

  it("never flashes the wrong theme: the class is set before any of the app's scripts run", async ({
    openPage,
  }) => {
    const page = await openPage({ colorScheme: "light" });
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("theme", "dark"));

    // Record the theme at the moment the app's first module starts, and at the first frame.
    await page.addInitScript(() => {
      const seen: Record<string, boolean> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        const script = document.querySelector('script[type="module"]');
        if (script && !("atAppScript" in seen))
          seen.atAppScript = document.documentElement.classList.contains("dark");
      }).observe(document, { childList: true, subtree: true });
      requestAnimationFrame(() => {
        seen.atFirstFrame = document.documentElement.classList.contains("dark");
      });
    });
    // And with the app's code blocked entirely, the theme script in the head alone must still set it.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    await page.waitForFunction(() => "atFirstFrame" in (window as unknown as { seen: object }).seen);
    expect(await page.evaluate(() => (window as unknown as { seen: object }).seen)).toEqual({
      atAppScript: true,
      atFirstFrame: true,
    });
    expect(await isDark(page)).toBe(true);
    // The app really did not run (the page itself is there: the server rendered it).
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
  });

  it("offers the toggle in the mobile menu", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone", colorScheme: "dark" });
    await page.goto("/");
    expect(await isDark(page)).toBe(true);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page
      .getByRole("dialog", { name: "Menu" })
      .getByRole("button", { name: "Switch to light theme" })
      .click();
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });
});
