import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { catalogueWithoutMenu, HEADER_MENUS, shoot } from "../fixtures.ts";
import { it, uniqueEmail } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

const header = (page: Page) => page.getByRole("banner");
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    // In view, and not hidden under the sticky banner and header.
    const headerBottom = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    const box = element.getBoundingClientRect();
    return box.top >= headerBottom - 1 && box.top < window.innerHeight / 2;
  });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("the header of a signed-in shopper", () => {
  it("shows the avatar with the e-mail's first letter at 375 and 1280 px, light and dark, with room for it", async ({
    shop,
    openContext,
  }) => {
    const account = await signUpViaHttp(shop.url, uniqueEmail("kavya.raghunathan"));
    // Signed out, a phone's header keeps the shop's name on one line: no space is kept for an account control.
    const signedOut = await openContext({ viewport: "phone" });
    const visitor = await signedOut.newPage();
    await visitor.goto("/");
    await visitor.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const name = await header(visitor).getByRole("link", { name: "Prakriti Naturals" }).boundingBox();
    expect(name?.height).toBeLessThanOrEqual(32);
    await signedOut.close();
    // One signed-in page shown at each width and in each theme: what is checked is where the header's parts sit.
    const context = await openContext({ viewport: "phone" });
    await signInContext(context, shop.url, account);
    const page = await context.newPage();
    await page.goto("/");
    await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
      const avatar = header(page).getByRole("button", { name: `Account menu for ${account.email}` });
      await avatar.waitFor();
      expect(await avatar.textContent()).toBe("k");
      const width = page.viewportSize()?.width ?? 0;
      const boxes = {
        avatar: await avatar.boundingBox(),
        cart: await header(page).getByRole("link", { name: /^Cart/ }).boundingBox(),
        search: await header(page).getByRole("button", { name: "Search products" }).boundingBox(),
        name: await header(page).getByRole("link", { name: "Prakriti Naturals" }).boundingBox(),
      };
      for (const [name, box] of Object.entries(boxes)) {
        expect(box, name).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${name} inside the screen`).toBeLessThanOrEqual(width);
      }
      // Nothing in the header runs into anything else, and the page does not scroll sideways.
      const entries = Object.entries(boxes) as [string, Box][];
      for (const [i, [a, boxA]] of entries.entries())
        for (const [b, boxB] of entries.slice(i + 1))
          expect(overlaps(boxA, boxB), `${a} and ${b}`).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shoot(page, {
        path: `test-results/screenshots/header-signed-in-${viewport}-${colorScheme}.png`,
      });
    });
    await context.close();
  });
});

describe("the header on a desktop", () => {
  it("lists each category's products in its menu, and closes on Escape or a click elsewhere", async ({
    page,
  }) => {
    await page.goto("/");
    const categories = header(page).getByRole("navigation", { name: "Shop by category" });
    await categories.waitFor();
    expect(await categories.getByRole("button").allTextContents()).toEqual(HEADER_MENUS);

    const face = categories.getByRole("button", { name: "Face" });
    await face.click();
    expect(await face.getAttribute("aria-expanded")).toBe("true");
    const faceList = categories.getByRole("list", { name: "Face" });
    expect(await faceList.getByRole("link").allTextContents()).toEqual([
      "Beetroot Face Pack₹499",
      "Face Glow Oil₹499",
      "Face Wash Powder₹499",
      "Skin Brightening Pack₹499",
    ]);
    await shoot(page, { path: "test-results/screenshots/home-header-menu-desktop.png" });
    await page.keyboard.press("Escape");
    expect(await face.getAttribute("aria-expanded")).toBe("false");
    expect(await face.evaluate((element) => element === document.activeElement)).toBe(true);

    const milk = categories.getByRole("button", { name: "Milk Range" });
    await milk.click();
    expect(await categories.getByRole("list", { name: "Milk Range" }).getByRole("link").count()).toBe(8);
    await page.mouse.click(640, 600);
    expect(await milk.getAttribute("aria-expanded")).toBe("false");

    // Opening one product from a menu.
    await categories.getByRole("button", { name: "Bestsellers" }).click();
    await categories.getByRole("link", { name: /Natural Hair Dye/ }).click();
    await page.waitForURL("**/product/natural-hair-dye");
  });

  it("says 'No products' for a menu with nothing in it", async ({ page }) => {
    await catalogueWithoutMenu(page, "combos");
    await page.goto("/cart");
    await header(page).getByRole("button", { name: "Combos & Gifting" }).click();
    await header(page).getByText("No products", { exact: true }).waitFor();
  });

  it("About Us scrolls to the about section, from home and from another page", async ({ page }) => {
    await page.goto("/");
    await header(page).getByRole("button", { name: "About Us" }).click();
    await expect.poll(() => inView(page, "#about"), { timeout: 5000 }).toBe(true);

    await page.goto("/product/coconut-oil");
    await page.getByRole("heading", { level: 1, name: "Coconut Oil" }).waitFor();
    await header(page).getByRole("button", { name: "About Us" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "#about");
    await expect.poll(() => inView(page, "#about"), { timeout: 5000 }).toBe(true);
    expect(await header(page).getByRole("link", { name: "Blog" }).getAttribute("href")).toBe("/blog");
  });

  it("has a Login button and a cart button whose badge counts the items", async ({ page }) => {
    await page.goto("/");
    const cart = header(page).getByRole("link", { name: /^Cart/ });
    expect(await cart.getAttribute("aria-label")).toBe("Cart, empty");
    expect(await cart.getAttribute("href")).toBe("/cart");
    expect(await header(page).getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login");

    await page.evaluate(() =>
      localStorage.setItem(
        "cart",
        JSON.stringify({
          items: [
            { id: "badam-mix", kind: "product", name: "Badam Mix", quantity: 2 },
            { id: "coconut-oil", kind: "product", name: "Coconut Oil", quantity: 1 },
          ],
        }),
      ),
    );
    await page.reload();
    await expect.poll(() => cart.getAttribute("aria-label")).toBe("Cart, 3 items");
    expect(await cart.getByTestId("cart-count").textContent()).toBe("3");

    await cart.click();
    await page.waitForURL("**/cart");
  });

  it("can be used with the keyboard alone, with a visible focus ring", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    // The server HTML has no Login: it appears once the browser knows nobody is signed in.
    await header(page).getByRole("link", { name: "Login" }).waitFor();
    const seen: string[] = [];
    for (let press = 0; press < 12; press++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        const style = getComputedStyle(element);
        return {
          name: element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "",
          ring: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2,
        };
      });
      expect(focused.ring, `focus ring on ${focused.name}`).toBe(true);
      seen.push(focused.name);
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        "Skip to content",
        "Minimise offer banner",
        "Search products",
        "Login",
        "Hair",
      ]),
    );
  });
});
