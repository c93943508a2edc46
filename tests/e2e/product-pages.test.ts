import pg from "pg";
import type { Page, Route } from "playwright-core";
import { describe, expect } from "vitest";
import { showColorScheme } from "../color-scheme.ts";
import { expectTitle, openPage, screenshot, VIEWPORTS, waitForApp } from "../fixtures.ts";
import {
  fetchPage,
  h1Of,
  isDisabled,
  mainOf,
  metaOf,
  named,
  type ServerPage,
  titleOf,
  visibleText,
} from "../page-html.ts";
import { it } from "../shop-test.ts";

const mainImage = (page: Page) => page.locator("main > article img").first();
const description = (page: Page) =>
  page.locator('meta[name="description"]').evaluate((meta: HTMLMetaElement) => meta.content);

/** The product or combo itself, in its page as the server sends it. */
function productArticle(page: ServerPage) {
  const article = page.document.querySelector("main > article");
  if (!article) throw new Error(`${page.url} (${page.status}) has no main > article`);
  return article;
}

describe("the product page", () => {
  it("shows a product on sale: badge, SALE, prices, rating, benefits, stock and its title", async ({
    shop,
  }) => {
    const page = await fetchPage(shop, "/product/badam-mix");
    const main = mainOf(page);
    expect(h1Of(page)).toEqual(["Badam Mix"]);
    expect(titleOf(page)).toBe("Badam Mix | Prakriti Naturals");
    expect(metaOf(page, "description")).toMatch(/^A rich milk mix of roasted almonds/);

    const details = visibleText(productArticle(page));
    expect(details).toContain("Limited Time");
    expect(details).toMatch(/\bSale\b/); // the badge, shown in capitals by the stylesheet
    expect(details).toContain("Price: ₹399 was ₹499");
    expect(details).toContain("You save ₹100 (20% off)");
    expect(details).toContain(
      "4.5 out of 5 (687 ratings, including ratings given before our online shop opened)",
    );
    expect(details).toContain("In stock");
    expect(details).toContain("Nutrition · Health Drinks");
    expect(main.querySelector("s")?.textContent).toContain("₹499");
    const benefits = main.querySelector('ul[aria-label="Benefits"]');
    expect(benefits?.querySelectorAll("li").map((item) => item.textContent)).toEqual([
      "✓Real roasted almonds",
      "✓Sweetened with jaggery",
      "✓Hot or cold milk",
    ]);
    const breadcrumb = main.querySelector('nav[aria-label="Breadcrumb"]');
    expect(breadcrumb?.querySelectorAll("li").map(visibleText)).toEqual([
      "Home /",
      "Nutrition /",
      "Health Drinks /",
      "Badam Mix",
    ]);
    const addToCart = named(page.document.querySelectorAll("button"), "Add to cart");
    expect(addToCart.map(isDisabled)).toEqual([false]);
  });

  it("shows no SALE tag and no struck-through price when there is no original price", async ({ shop }) => {
    const article = productArticle(await fetchPage(shop, "/product/hair-wash-powder"));
    const details = visibleText(article);
    expect(details).toContain("₹675");
    expect(details).not.toMatch(/\bSale\b/i);
    expect(details).not.toContain("You save");
    expect(article.querySelectorAll("s")).toHaveLength(0);
  });

  it("switches the main image with the thumbnails, by mouse and by keyboard", async ({ shop, browser }) => {
    const { page, close } = await openPage(browser, shop, "/product/face-glow-oil");
    const thumbnails = page
      .getByRole("group", { name: "Face Glow Oil: choose an image" })
      .getByRole("button");
    await expect(thumbnails.count()).resolves.toBe(3);
    await expect(mainImage(page).getAttribute("src")).resolves.toBe(
      "/images/catalogue/face-glow-oil-1-800.webp",
    );
    await expect(mainImage(page).getAttribute("alt")).resolves.toBe("Face Glow Oil, image 1 of 3");

    await page.getByRole("button", { name: "Show image 3 of 3" }).click();
    await expect(mainImage(page).getAttribute("src")).resolves.toBe(
      "/images/catalogue/face-glow-oil-3-800.webp",
    );
    await expect(thumbnails.nth(2).getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(thumbnails.nth(0).getAttribute("aria-pressed")).resolves.toBe("false");

    await thumbnails.nth(0).focus();
    await page.keyboard.press("Enter");
    await expect(mainImage(page).getAttribute("src")).resolves.toBe(
      "/images/catalogue/face-glow-oil-1-800.webp",
    );
    await page.keyboard.press("ArrowRight");
    await expect(mainImage(page).getAttribute("src")).resolves.toBe(
      "/images/catalogue/face-glow-oil-2-800.webp",
    );
    await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe(
      "Show image 2 of 3",
    );
    await page.keyboard.press("End");
    await expect(mainImage(page).getAttribute("alt")).resolves.toBe("Face Glow Oil, image 3 of 3");
    await page.keyboard.press("ArrowRight"); // wraps round to the first
    await expect(mainImage(page).getAttribute("alt")).resolves.toBe("Face Glow Oil, image 1 of 3");
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe(
      "Show image 2 of 3",
    );
    await close();
  });

  it("has no thumbnails for a product with a single image", async ({ shop }) => {
    const page = await fetchPage(shop, "/product/chilli-powder");
    expect(productArticle(page).querySelector("img")?.getAttribute("alt")).toBe("Chilli Powder");
    expect(named(page.document.querySelectorAll("button"), /Show image/)).toHaveLength(0);
  });

  it("says when a product is out of stock and offers no Add to cart", async ({ shop }) => {
    // The stock level comes from the server, which renders the page: the shelf is emptied in the database.
    const db = new pg.Client({ connectionString: shop.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ stock: number }>(
      "select stock from products where slug = 'coconut-oil'",
    );
    // The shop forgets its copy of the catalogue when the NOTIFY of the change arrives, a moment after the
    // commit: the page is asked for once the shop answers that it is out of stock, not in a race with the NOTIFY.
    const inStockAnswered = (inStock: boolean) =>
      expect
        .poll(async () => {
          const answer = await fetch(`${shop.url}/api/products/coconut-oil`);
          return ((await answer.json()) as { inStock: boolean }).inStock;
        })
        .toBe(inStock);
    await db.query("update products set stock = 0 where slug = 'coconut-oil'");
    try {
      await inStockAnswered(false);
      const page = await fetchPage(shop, "/product/coconut-oil");
      const details = visibleText(productArticle(page));
      expect(details).toContain("Out of stock");
      expect(details).not.toContain("In stock");
      const buttons = page.document.querySelectorAll("button");
      expect(named(buttons, "Out of stock").map(isDisabled)).toEqual([true]);
      expect(named(buttons, "Add to cart")).toHaveLength(0);
    } finally {
      await db.query("update products set stock = $1 where slug = 'coconut-oil'", [rows[0]?.stock ?? 100]);
      await db.end();
      await inStockAnswered(true); // the next test sees the shelf as it was
    }
  });

  it("keeps the quantity between 1 and 99", async ({ shop, browser }) => {
    const { page, close } = await openPage(browser, shop, "/product/coconut-oil");
    const quantity = page.getByLabel("Quantity", { exact: true });
    const decrease = page.getByRole("button", { name: "Decrease quantity" });
    await expect(quantity.inputValue()).resolves.toBe("1");
    await expect(decrease.isDisabled()).resolves.toBe(true);

    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await expect(quantity.inputValue()).resolves.toBe("3");
    await decrease.click();
    await expect(quantity.inputValue()).resolves.toBe("2");

    await quantity.fill("250");
    await quantity.blur();
    await expect(quantity.inputValue()).resolves.toBe("99");
    await expect(page.getByRole("button", { name: "Increase quantity" }).isDisabled()).resolves.toBe(true);
    await quantity.fill("0");
    await quantity.blur();
    await expect(quantity.inputValue()).resolves.toBe("1");
    await quantity.fill("");
    await quantity.blur();
    await expect(quantity.inputValue()).resolves.toBe("1");
    await close();
  });

  it("suggests four related products, the same category first, each linking to its page", async ({
    shop,
    browser,
  }) => {
    const { page, close } = await openPage(browser, shop, "/product/bath-powder");
    const related = page.getByRole("region", { name: "You may also like" });
    const links = related.getByRole("link");
    await expect(links.allTextContents()).resolves.toEqual([
      // body, most reviewed first: the other three body products, then the most reviewed of the rest
      "Coconut Oil",
      "Wax Powder",
      "Kids Bath Powder",
      "Hair Growth Oil",
    ]);
    await expect(related.innerText()).resolves.toContain("₹350");

    await page.getByRole("button", { name: "Show image 2 of 3" }).click();
    await links.first().click();
    await page.waitForURL("**/product/coconut-oil");
    await page.getByRole("heading", { level: 1, name: "Coconut Oil" }).waitFor();
    await expectTitle(page, "Coconut Oil | Prakriti Naturals");
    // A new product starts again at its first image.
    await expect(mainImage(page).getAttribute("alt")).resolves.toBe("Coconut Oil, image 1 of 2");
    await close();
  });

  it("helps with an unknown product: suggestions, every category's products and a way back", async ({
    shop,
    browser,
  }) => {
    const { page, close } = await openPage(browser, shop, "/product/hair-oil");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "We couldn't find that product",
    );
    await expectTitle(page, "Product not found | Prakriti Naturals");
    const suggestions = page.getByRole("region", { name: "Were you looking for one of these?" });
    await expect(suggestions.getByRole("link").first().textContent()).resolves.toBe("Hair Growth Oil");
    for (const category of ["Haircare", "Skincare", "Body", "Nutrition"]) {
      await expect(page.getByRole("heading", { name: category, level: 3 }).isVisible()).resolves.toBe(true);
    }
    await expect(
      page.getByRole("region", { name: "Browse by category" }).getByRole("link").count(),
    ).resolves.toBe(21);
    await page.getByRole("link", { name: "Back to the shop" }).click();
    await page.waitForURL(`${shop.url}/`);

    await page.goto("/product/NOT%20a%20slug");
    await page.getByRole("heading", { name: "We couldn't find that product" }).waitFor();
    await close();
  });
});

describe("the combo page", () => {
  it("shows the three products, the sale price, the original price, the savings and the gift note", async ({
    shop,
    browser,
  }) => {
    const { page, close } = await openPage(browser, shop, "/combo/skincare-combo");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Glow Skincare Combo");
    await expectTitle(page, "Glow Skincare Combo | Prakriti Naturals");
    await expect(description(page)).resolves.toMatch(/^A complete natural face routine/);

    const details = (await page.locator("main > article").innerText()).replace(/\s+/g, " ");
    expect(details).toContain("Most Popular");
    expect(details).toContain("Price: ₹1,199 was ₹1,497");
    expect(details).toContain("You save ₹298");
    expect(details).toContain("eco-friendly packaging, and free gift wrapping is available on request");
    await expect(page.locator("main > article s").textContent()).resolves.toContain("₹1,497");
    await expect(page.getByRole("list", { name: "Benefits" }).getByRole("listitem").count()).resolves.toBe(3);
    await expect(page.getByRole("button", { name: "Add to cart" }).isEnabled()).resolves.toBe(true);

    const inside = page.getByRole("region", { name: "What's inside" });
    await expect(inside.getByRole("link").allTextContents()).resolves.toEqual([
      "Face Glow Oil",
      "Face Wash Powder",
      "Skin Brightening Pack",
    ]);
    await expect(inside.getByRole("listitem").first().innerText()).resolves.toContain("₹499");
    const images = inside.locator("img");
    await expect(images.count()).resolves.toBe(3);
    await expect(
      images.evaluateAll((all: HTMLImageElement[]) =>
        all.every((img) => img.complete && img.naturalWidth > 0),
      ),
    ).resolves.toBe(true);

    await inside.getByRole("link", { name: "Face Wash Powder" }).click();
    await page.waitForURL("**/product/face-wash-powder");
    await page.getByRole("heading", { level: 1, name: "Face Wash Powder" }).waitFor();
    await close();
  });

  it.for([
    ["haircare-combo", "₹1,299", "₹1,624", "₹325"],
    ["nutrition-combo", "₹949", "₹1,150", "₹201"],
    ["body-combo", "₹1,399", "₹1,649", "₹250"],
  ])("shows %s at %s, was %s, saving %s", async ([id, sale, original, savings], { shop }) => {
    const details = visibleText(productArticle(await fetchPage(shop, `/combo/${id}`)));
    expect(details).toMatch(new RegExp(`Price: ${sale} was ${original}`));
    expect(details).toContain(`You save ${savings}`);
  });

  it("lists the combos on offer for an unknown combo", async ({ shop, browser }) => {
    const { page, close } = await openPage(browser, shop, "/combo/party-combo");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "We couldn't find that combo",
    );
    await expectTitle(page, "Combo not found | Prakriti Naturals");
    const comboLinks = page.locator('main a[href^="/combo/"]');
    await expect(comboLinks.count()).resolves.toBe(4);
    await comboLinks.filter({ hasText: "Hair" }).click();
    await page.waitForURL("**/combo/haircare-combo");
    await page.getByRole("heading", { level: 1, name: "Hair Growth Combo" }).waitFor();
    await close();
  });
});

describe("product and combo pages on every screen", () => {
  // Images are held back until the page has rendered, so any space they failed to reserve would show as a shift.
  it.for(["/product/hair-growth-oil", "/combo/body-combo"])(
    "%s does not shift when its images arrive",
    async (path, { openContext }) => {
      const context = await openContext({ viewport: "phone" });
      const page = await context.newPage();
      const held: Route[] = [];
      let released = false;
      await page.route("**/*.webp", (route) => (released ? route.continue() : held.push(route)));
      // The held images keep the load event from firing: wait for the document and the app instead.
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await waitForApp(page);
      await page.evaluate(() => {
        const record = window as unknown as { shift: number };
        record.shift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) {
            record.shift += entry.value;
          }
        }).observe({ type: "layout-shift" });
      });
      expect(held.length).toBeGreaterThan(0);
      // Requests made from now on (the page hydrating, lazy images) go through at once.
      released = true;
      await Promise.all(held.map((route) => route.continue()));
      await page.unroute("**/*.webp");
      // Every image the browser fetches now; lazy ones far below (related products) wait for a scroll, which
      // would measure other things arriving, so they are left out: their place is below the screen anyway.
      await page.waitForFunction(() =>
        [...document.querySelectorAll("main img")].every(
          (img) =>
            (img as HTMLImageElement).complete ||
            ((img as HTMLImageElement).loading === "lazy" &&
              img.getBoundingClientRect().top > window.innerHeight),
        ),
      );
      await page.waitForTimeout(200); // layout-shift entries are delivered asynchronously
      const total = await page.evaluate(() => (window as unknown as { shift: number }).shift);
      console.log(`layout shift on ${path} after images load: ${total.toFixed(4)}`);
      expect(total).toBe(0);
      await context.close();
    },
  );

  // A test per width: all three widths' twelve page loads and eight screenshots took over a minute on a busy
  // machine; now six loads.
  it.for(["phone", "tablet", "desktop"] as const)(
    "fits %s width in light and dark, and gets screenshots",
    async (viewport, { openContext }) => {
      // Each page loaded once and shown in both themes (the system setting switched under it).
      const context = await openContext({ viewport });
      const page = await context.newPage();
      for (const path of ["/product/face-glow-oil", "/combo/skincare-combo"]) {
        await page.goto(path);
        await page.locator("main h1").waitFor();
        // The images the screenshot shows are in: every one but the lazy ones still below the screen.
        await page.waitForFunction(() =>
          [...document.images].every(
            (image) =>
              image.complete ||
              image.getBoundingClientRect().height === 0 ||
              (image.loading === "lazy" && image.getBoundingClientRect().top > window.innerHeight),
          ),
        );
        for (const colorScheme of ["light", "dark"] as const) {
          // It waits until the page's theme class follows the setting, which is the check that it does.
          await showColorScheme(page, colorScheme);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${path} at ${viewport}, ${colorScheme}`).toBeLessThanOrEqual(
            VIEWPORTS[viewport].width,
          );
          const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
          expect(dark).toBe(colorScheme === "dark");
          if (viewport !== "tablet") {
            const name = path.split("/")[1];
            await screenshot(page, `${name}-${viewport === "phone" ? 375 : 1280}-${colorScheme}`);
          }
        }
      }
    },
  );
});
