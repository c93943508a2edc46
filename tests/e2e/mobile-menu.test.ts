import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { catalogueWithoutMenu, HEADER_MENUS, shoot } from "../fixtures.ts";
import { it, uniqueEmail } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

// Each walk runs once; the open menu is looked at in light and dark, switched under the loaded page (the
// theme changes how the menu looks, not how it opens or what it holds).
const LOOKS = viewsAt(["phone"]);

const menu = (page: Page) => page.getByRole("dialog", { name: "Menu" });
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    // In view, and not hidden under the sticky banner and header.
    const headerBottom = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    const box = element.getBoundingClientRect();
    return box.top >= headerBottom - 1 && box.top < window.innerHeight / 2;
  });

describe("the mobile menu at 375 px", () => {
  it("signed in, shows Contact Us whole in light and dark: nothing is cut off by a scroller of its own (issue 30)", async ({
    shop,
    openContext,
  }) => {
    const account = await signUpViaHttp(shop.url, uniqueEmail("kavya.menu"));
    const context = await openContext({ viewport: "phone", colorScheme: "light" });
    await signInContext(context, shop.url, account);
    const page = await context.newPage();
    await page.goto("/");
    await page
      .getByRole("banner")
      .getByRole("button", { name: /^Account menu/ })
      .waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu(page).getByRole("navigation", { name: "Your account" }).waitFor();
    await inEachView(page, LOOKS, async (_, colorScheme) => {
      // Each row of the menu is whole inside whatever scrolls it: the list used to end in "Contact U…".
      const cut = await menu(page)
        .getByRole("navigation", { name: "Mobile" })
        .evaluate((nav) => {
          const rows = [...nav.querySelectorAll("summary, a, button")] as HTMLElement[];
          return (
            rows
              // Only what is drawn: the links inside a folded category are not.
              .filter((row) => row.checkVisibility())
              .filter((row) => {
                let scroller = row.parentElement;
                while (scroller && getComputedStyle(scroller).overflowY === "visible")
                  scroller = scroller.parentElement;
                const area = (scroller ?? document.documentElement).getBoundingClientRect();
                const box = row.getBoundingClientRect();
                const visible = box.bottom > area.top && box.top < area.bottom;
                return visible && (box.top < area.top - 1 || box.bottom > area.bottom + 1);
              })
              .map((row) => row.textContent)
          );
        });
      expect(cut, colorScheme).toEqual([]);
      const contact = menu(page).getByRole("button", { name: "Contact Us" });
      const box = await contact.boundingBox();
      expect((box?.y ?? 0) + (box?.height ?? 0), colorScheme).toBeLessThanOrEqual(812);
      await shoot(page, { path: `test-results/screenshots/mobile-menu-signed-in-${colorScheme}.png` });
    });
    await context.close();
  });

  it("holds the category menus, About Us, Blog, Contact Us and Login, in light and dark; Contact Us scrolls to the form", async ({
    openContext,
  }) => {
    const context = await openContext({ viewport: "phone", colorScheme: "light" });
    const page = await context.newPage();
    await page.goto("/");
    // The desktop menus are hidden; the menu button takes their place.
    expect(await page.getByRole("navigation", { name: "Shop by category" }).isVisible()).toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu(page).waitFor();
    const summaries = menu(page).locator("summary");
    expect(await summaries.allTextContents()).toEqual(HEADER_MENUS);
    await summaries.filter({ hasText: "Body" }).click();
    for (const name of ["About Us", "Contact Us"]) await menu(page).getByRole("button", { name }).waitFor();
    expect(await menu(page).getByRole("link", { name: "Blog" }).getAttribute("href")).toBe("/blog");
    expect(await menu(page).getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login");
    await inEachView(page, LOOKS, async (_, colorScheme) => {
      expect(await page.getByRole("navigation", { name: "Shop by category" }).isVisible(), colorScheme).toBe(
        false,
      );
      expect(await menu(page).getByRole("link", { name: "Wax Powder" }).isVisible(), colorScheme).toBe(true);
      await shoot(page, { path: `test-results/screenshots/home-mobile-menu-${colorScheme}.png` });
    });

    await menu(page).getByRole("button", { name: "Contact Us" }).click();
    await menu(page).waitFor({ state: "hidden" });
    await expect.poll(() => inView(page, "#contact"), { timeout: 5000 }).toBe(true);
    await page.getByRole("textbox", { name: "Name" }).waitFor();
    await context.close();
  });

  it("closes with Escape, keeps focus inside while open, and follows links", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/product/bath-powder");
    const opener = page.getByRole("button", { name: "Open menu" });
    await opener.click();
    // The sheet loads on the first tap: keyboard checks start once it is open.
    await menu(page).waitFor();
    for (let press = 0; press < 15; press++) {
      await page.keyboard.press("Tab");
      expect(await menu(page).evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await menu(page).waitFor({ state: "hidden" });
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);

    // About Us from another page goes home, then to the section.
    await opener.click();
    await menu(page).getByRole("button", { name: "About Us" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "#about");
    // The lower sections load after the first screen, then a smooth scroll of a few screens follows.
    await expect.poll(() => inView(page, "#about"), { timeout: 5000 }).toBe(true);

    await opener.click();
    await menu(page).locator("summary", { hasText: "Hair" }).click();
    await menu(page).getByRole("link", { name: "Hair Growth Serum" }).click();
    await page.waitForURL("**/product/hair-growth-serum");
    await menu(page).waitFor({ state: "hidden" });
  });

  it("says 'No products available' for a menu with nothing in it", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await catalogueWithoutMenu(page, "bestsellers");
    await page.goto("/cart");
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu(page).locator("summary", { hasText: "Bestsellers" }).click();
    await menu(page).getByText("No products available", { exact: true }).waitFor();
  });
});
