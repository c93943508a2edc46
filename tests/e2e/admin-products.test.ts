import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect } from "vitest";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import type { Shop } from "../fixtures.ts";
import { shoot } from "../fixtures.ts";
import { fetchPage, h1Of } from "../page-html.ts";
import { contextOn, it, ownShopForFile, signedInPageOn } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let shopper: TestAccount;

// A shop of its own: it adds a product, changes a price and moves a product's address, which every visitor sees.
ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});
beforeAll(async () => {
  shopper = await signUpViaHttp(shop.url, "products-shopper@example.in");
});

/** Screenshots of these pages, for a person to look at (never compared by the test). */
const shot = (page: Page, name: string) => shoot(page, { path: `/tmp/${name}.png`, fullPage: true });

async function ownerPage(
  path: string,
  viewport: "phone" | "desktop" = "desktop",
  colorScheme: "light" | "dark" = "light",
) {
  return signedInPageOn(browser, shop, owner, path, { viewport, colorScheme });
}

/** The admin has no footer to wait for: scroll to the bottom, so the list's lazy thumbnails load, and back. */
async function loadImages(page: Page) {
  await page.evaluate(async () => {
    for (let top = 0; top < document.documentElement.scrollHeight; top += 500) {
      window.scrollTo({ top, behavior: "instant" });
      await new Promise(requestAnimationFrame);
    }
    window.scrollTo({ top: 0, behavior: "instant" });
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, {
    timeout: 15_000,
  });
}

/** A photo as a phone takes it: landscape, a warm gradient. */
async function testPhoto() {
  const width = 1600;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = 120 + Math.round((x / width) * 120);
      pixels[at + 1] = 150 - Math.round((y / height) * 80);
      pixels[at + 2] = 60;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const editorOf = (page: Page, name: string) => page.getByRole("form", { name });

describe("the owner's products", () => {
  it("adds a product with an uploaded photo: it is in the grid, search, its menu and the sitemap", async () => {
    const { page, close } = await ownerPage("/admin/products");
    await page.getByRole("heading", { name: "Products" }).waitFor();
    const rows = page.getByRole("list", { name: "Products" }).getByRole("listitem");
    expect(await rows.count()).toBe(21);

    await page.getByLabel("Search by name").fill("oil");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("3 products named like “oil”.").waitFor();
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining("Coconut Oil"),
      expect.stringContaining("Face Glow Oil"),
      expect.stringContaining("Hair Growth Oil"),
    ]);

    await page.getByRole("link", { name: "New product" }).click();
    const form = editorOf(page, "New product");
    await form.getByLabel("Name").fill("Amla Hair Rinse");
    expect(await form.getByLabel("Address (slug)").inputValue()).toBe("amla-hair-rinse");
    await form.getByLabel("Price (₹)", { exact: true }).fill("-5");
    await form.getByLabel("Original price (₹)").fill("449");
    await form
      .getByLabel("Description")
      .fill("Amla, reetha and shikakai, sun-dried and ground: a gentle rinse for every wash day.");
    await form.getByLabel("Benefit 1").fill("Adds shine");
    await form.getByLabel("Benefit 2").fill("Gentle on colour");
    await form.getByLabel("Benefit 3").fill("No sulphates");
    await form.getByLabel("Subcategory").selectOption("Hair Pack");
    await form.getByLabel("Badge").selectOption("New Launch");
    await form.getByLabel("Hair", { exact: true }).check();
    await form.locator("#product-image-file").setInputFiles({
      name: "amla.jpg",
      mimeType: "image/jpeg",
      buffer: await testPhoto(),
    });
    const altText = form.getByLabel("Image 1: what it shows (alt text)");
    await altText.waitFor();
    await altText.fill("A bowl of amla rinse powder");

    await form.getByRole("button", { name: "Create product" }).click();
    await form.getByText("Price must be more than ₹0.").waitFor();
    expect(await form.getByLabel("Description").inputValue()).toContain("sun-dried");

    await form.getByLabel("Price (₹)", { exact: true }).fill("399");
    await form.getByRole("button", { name: "Create product" }).click();
    await page.waitForURL("**/admin/products/amla-hair-rinse");
    await page.getByRole("heading", { name: "Amla Hair Rinse" }).waitFor();
    await close();

    const visitor = await contextOn(browser, shop);
    const shopPage = await visitor.newPage();
    // The grid, filtered to hair care (sorted by name, so it is the first card).
    await shopPage.goto("/?category=haircare");
    const card = shopPage.getByRole("link", { name: /Amla Hair Rinse/ }).first();
    await card.waitFor();
    // Search.
    const search = shopPage.getByRole("main").getByRole("combobox", { name: "Search products" });
    await search.fill("amla");
    await shopPage
      .getByRole("main")
      .getByRole("listbox", { name: "Matching products" })
      .getByRole("option", { name: /Amla Hair Rinse/ })
      .waitFor();
    // Its menu.
    const categories = shopPage.getByRole("banner").getByRole("navigation", { name: "Shop by category" });
    await categories.getByRole("button", { name: "Hair" }).click();
    await categories
      .getByRole("list", { name: "Hair" })
      .getByRole("link", { name: /Amla Hair Rinse/ })
      .waitFor();
    // The sitemap.
    const sitemap = await (await fetch(`${shop.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`${shop.url}/product/amla-hair-rinse</loc>`);
    // Its page shows the uploaded photo with the owner's alt text, served from the database.
    await shopPage.goto("/product/amla-hair-rinse");
    const photo = shopPage.getByRole("img", { name: "A bowl of amla rinse powder" });
    await photo.waitFor();
    expect(await photo.getAttribute("src")).toMatch(/^\/images\/uploads\/[0-9a-f]{32}-800\.webp$/);
    // Loaded (whichever of the srcset's sizes the browser picked), not a broken image.
    await expect
      .poll(() =>
        photo.evaluate(
          (image: HTMLImageElement) => image.complete && image.naturalWidth > 0 && image.currentSrc,
        ),
      )
      .toMatch(/\/images\/uploads\/[0-9a-f]{32}-(400|800)\.webp$/);
    await visitor.close();
  });

  it("changes a price, and a shopper's cart shows the change", async () => {
    const added = await fetch(`${shop.url}/api/cart/items`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url, Cookie: shopper.cookie },
      body: JSON.stringify({ id: "coconut-oil", kind: "product", quantity: 1 }),
    });
    expect(added.status).toBe(200);

    const { page, close } = await ownerPage("/admin/products/coconut-oil");
    const form = editorOf(page, "Edit Coconut Oil");
    await form.getByLabel("Price (₹)", { exact: true }).fill("375");
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved. The shop shows the change now.").waitFor();
    await close();

    const context = await contextOn(browser, shop);
    await signInContext(context, shop.url, shopper);
    const cart = await context.newPage();
    await cart.goto("/cart");
    await cart.getByText("Price changed since you added it (was ₹350)").waitFor();
    await cart.getByTestId("cart-subtotal").getByText("₹375").waitFor();
    await context.close();
  });

  it("keeps what the second editor typed when someone else saved first, and saves it on purpose", async () => {
    const first = await ownerPage("/admin/products/badam-mix");
    const second = await ownerPage("/admin/products/badam-mix");
    // Both editors hold the product as it was before either saves.
    for (const { page } of [first, second]) {
      await editorOf(page, "Edit Badam Mix").getByLabel("Price (₹)", { exact: true }).waitFor();
    }
    await editorOf(first.page, "Edit Badam Mix").getByLabel("Price (₹)", { exact: true }).fill("379");
    await editorOf(first.page, "Edit Badam Mix").getByRole("button", { name: "Save changes" }).click();
    await first.page.getByText("Saved. The shop shows the change now.").waitFor();

    const form = editorOf(second.page, "Edit Badam Mix");
    await form
      .getByLabel("Description")
      .fill("Almonds, saffron and cardamom: typed while someone else saved.");
    await form.getByRole("button", { name: "Save changes" }).click();
    await second.page.getByText(/Someone else changed this product after you opened it/).waitFor();
    expect(await form.getByLabel("Description").inputValue()).toBe(
      "Almonds, saffron and cardamom: typed while someone else saved.",
    );
    await shoot(second.page, { path: "/tmp/admin-product-conflict-desktop-light.png" });
    await second.page.getByRole("button", { name: "Save mine over theirs" }).click();
    await second.page.getByText("Saved. The shop shows the change now.").waitFor();
    const product = await (await fetch(`${shop.url}/api/products/badam-mix`)).json();
    expect(product.description).toBe("Almonds, saffron and cardamom: typed while someone else saved.");
    await first.close();
    await second.close();
  });

  it("moves a product to a new address, and the old one redirects for good", async () => {
    const { page, close } = await ownerPage("/admin/products/amla-hair-rinse");
    const form = editorOf(page, "Edit Amla Hair Rinse");
    await form.getByLabel("Address (slug)").fill("amla-reetha-hair-rinse");
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL("**/admin/products/amla-reetha-hair-rinse");
    await close();

    const old = await fetch(`${shop.url}/product/amla-hair-rinse`, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe("/product/amla-reetha-hair-rinse");
    const moved = await fetchPage(shop, "/product/amla-hair-rinse");
    expect(new URL(moved.url).pathname).toBe("/product/amla-reetha-hair-rinse");
    expect(h1Of(moved)).toEqual(["Amla Hair Rinse"]);
  });

  it("is looked at on a phone and a wide screen, light and dark", async () => {
    // Each page loaded once and shown at each width and in each theme (the window resized and the system
    // setting switched under it); a new width may show more thumbnails, so each view loads them first.
    for (const [path, name] of [
      ["/admin/products", "list"],
      ["/admin/products/natural-hair-dye", "editor"],
    ] as const) {
      const { page, close } = await ownerPage(path, "phone");
      await inEachView(page, EVERY_VIEW, async (viewport, scheme) => {
        await loadImages(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} ${viewport} ${scheme} scrolls sideways`).toBeLessThanOrEqual(0);
        await shot(page, `admin-products-${name}-${viewport}-${scheme}`);
      });
      await close();
    }
  });
});
