import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { signInContext, type TestAccount } from "../accounts.ts";
import type { ColorScheme, Shop, Viewport } from "../fixtures.ts";
import { newContext, screenshot, sidewaysOverflow, waitForApp } from "../fixtures.ts";
import { ownShopForFile } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;

ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});

async function ownerSettings(viewport: Viewport, colorScheme: ColorScheme) {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto("/admin/settings");
  await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  return { page, form: page.getByRole("form", { name: "Shop settings" }), close: () => context.close() };
}

async function shopperPage(path: string, viewport: Viewport, colorScheme: ColorScheme) {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  const page = await context.newPage();
  await page.goto(path);
  await waitForApp(page);
  return { page, context, close: () => context.close() };
}

const brandVariable = (page: Page) =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--color-brand-700").trim(),
  );

// Each pass saves a different fee, colour and name, so every one is a change the shop must show at once. The
// walk runs once per width; what it shows is looked at in both themes, switched under the loaded page.
type Pass = { viewport: Viewport; feeRupees: number; colour: string; name: string };
const PASSES: Pass[] = [
  { viewport: "phone", feeRupees: 79, colour: "#1d4ed8", name: "Vanya Herbals" },
  { viewport: "desktop", feeRupees: 59, colour: "#7c2d12", name: "Vanya Naturals" },
];

describe("the owner keeps the shop's settings at /admin/settings", () => {
  for (const [index, pass] of PASSES.entries()) {
    it(`at ${pass.viewport}, light and dark: changes the shipping fee, name, colour, logo and a hero slide, and a shopper's next page shows each`, async () => {
      const looks = viewsAt([pass.viewport]);
      const { page, form, close } = await ownerSettings(pass.viewport, "light");
      expect(await sidewaysOverflow(page)).toBe(0);

      // Refused first: yellow cannot carry white text, and the form says why, keeping what was typed.
      await form.getByLabel("Shop name").fill(pass.name);
      await form.getByLabel("Shipping fee (₹)").fill(String(pass.feeRupees));
      await form.getByLabel("Brand colour").fill("#facc15");
      await form
        .getByText(/White text on buttons in this colour would be hard to read \(a contrast of 1\.\d\d:1/)
        .first()
        .waitFor();
      await form.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Nothing was saved: please correct the fields marked below.").waitFor();
      expect(await form.getByLabel("Shop name").inputValue()).toBe(pass.name);

      await form.getByLabel("Brand colour").fill(pass.colour);
      await form.getByLabel("Free shipping from (₹)").fill("999");
      const logo = await sharp({
        create: { width: 240, height: 240, channels: 3, background: pass.colour },
      })
        .png()
        .toBuffer();
      const shownLogo = form.getByRole("img", { name: "The logo as the header shows it" });
      const earlierLogo = (await shownLogo.count()) > 0 ? await shownLogo.getAttribute("src") : null;
      await form.locator('input[type="file"]').setInputFiles({
        name: "logo.png",
        mimeType: "image/png",
        buffer: logo,
      });
      await page.waitForFunction((earlier) => {
        const img = document.querySelector<HTMLImageElement>('img[alt="The logo as the header shows it"]');
        return img !== null && img.getAttribute("src") !== earlier;
      }, earlierLogo);
      // The server's refusal of the yellow went with the change of colour; the form's own check agrees.
      expect(await form.getByText(/White text on buttons/).count()).toBe(0);
      await inEachView(page, looks, async (_, scheme) => {
        expect(await sidewaysOverflow(page), scheme).toBe(0);
        await screenshot(page, `shop-settings-admin-${pass.viewport}-${scheme}`);
      });
      await form.getByRole("button", { name: "Save settings" }).click();
      await page
        .getByText(`Saved. Shoppers see it now: shipping ₹${pass.feeRupees}, free from ₹999.`)
        .waitFor();

      // The first slide gets a new heading and button; the second is hidden.
      const slidesForm = page.getByRole("form", { name: "Home page slides" });
      const first = slidesForm.getByRole("listitem", { name: "Slide 1" });
      await first.getByLabel("Heading", { exact: true }).fill(`${pass.name}: the monsoon edit`);
      await first.getByLabel("Button label").fill("See the oils");
      await first.getByLabel(/^Button goes to/).fill("https://elsewhere.example");
      await slidesForm.getByRole("button", { name: "Save slides" }).click();
      await slidesForm.getByText(/Button target must be a page of the shop/).waitFor();
      await first.getByLabel(/^Button goes to/).fill("/product/hair-growth-oil");
      const second = slidesForm.getByRole("listitem", { name: "Slide 2" });
      await second.getByLabel("Shown on the home page").setChecked(index % 2 === 0);
      await slidesForm.getByRole("button", { name: "Save slides" }).click();
      await slidesForm
        .getByText(`Slides saved. The home page shows ${index % 2 === 0 ? 5 : 4} now.`)
        .waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      // The tab that saved, back in the shop without a reload, shows the new name and logo at once.
      const savedLogo = await form
        .getByRole("img", { name: "The logo as the header shows it" })
        .getAttribute("src");
      await page.getByRole("link", { name: "Back to the shop" }).click();
      const siteHeader = page.locator("header").filter({ has: page.getByRole("link", { name: pass.name }) });
      await siteHeader.waitFor();
      expect(await siteHeader.locator("img").first().getAttribute("src")).toBe(savedLogo);
      await close();

      // A second tab, as a shopper: the server's HTML already carries the name and the colour (no flash).
      const html = await (await fetch(`${shop.url}/`)).text();
      expect(html).toContain(`--color-brand-700:${pass.colour}`);
      expect(html).toMatch(new RegExp(`<title>${pass.name}:`));
      expect(html).toContain(`<meta property="og:site_name" content="${pass.name}"`);

      const shopper = await shopperPage("/product/moringa-powder", pass.viewport, "light");
      await inEachView(shopper.page, looks, async (_, scheme) => {
        expect(await brandVariable(shopper.page), scheme).toBe(pass.colour);
      });
      const home = shopper.page.getByRole("link", { name: pass.name }).first();
      await home.waitFor();
      expect(await home.locator("img").getAttribute("src")).toMatch(
        /^\/images\/uploads\/[0-9a-f]{32}-400\.webp$/,
      );
      await shopper.page.getByRole("button", { name: "Add to cart" }).click();
      await shopper.page.getByText("Moringa Powder was added to cart!").waitFor();
      await shopper.page.goto("/cart");
      await shopper.page.getByTestId("cart-shipping").getByText(`₹${pass.feeRupees}`).waitFor();
      expect(await shopper.page.getByTestId("cart-total").textContent()).toBe(`₹${250 + pass.feeRupees}`);
      await shopper.page.getByText(`Add ₹${999 - 250} more for free shipping.`).waitFor();
      await inEachView(shopper.page, looks, async (_, scheme) => {
        expect(await sidewaysOverflow(shopper.page), scheme).toBe(0);
        await screenshot(shopper.page, `shop-settings-cart-${pass.viewport}-${scheme}`);
      });
      await shopper.page.goto("/");
      await waitForApp(shopper.page);
      const hero = shopper.page.getByRole("region", { name: "Highlights" });
      const slide = hero.locator("[data-active]");
      await slide.getByRole("heading", { name: `${pass.name}: the monsoon edit` }).waitFor();
      expect(await slide.getByRole("link", { name: "See the oils" }).getAttribute("href")).toBe(
        "/product/hair-growth-oil",
      );
      expect(await hero.getByRole("button", { name: /^Slide \d+:/ }).count()).toBe(index % 2 === 0 ? 5 : 4);
      await inEachView(shopper.page, looks, async (_, scheme) => {
        await screenshot(shopper.page, `shop-settings-home-${pass.viewport}-${scheme}-${index}`);
      });
      await shopper.close();
    });
  }

  it("counts the goods before the discount when the owner says so, at checkout's cart", async () => {
    const { page, form, close } = await ownerSettings("desktop", "light");
    await form.getByLabel("Shipping fee (₹)").fill("49");
    await form.getByLabel("Free shipping from (₹)").fill("499");
    await form.getByLabel("before the discount", { exact: false }).check();
    await form.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Saved. Shoppers see it now: shipping ₹49, free from ₹499.").waitFor();
    await close();

    // Two Moringa Powders: ₹500 of goods, ₹400 after GLOW20's 20%: free only because the rule counts ₹500.
    const shopper = await shopperPage("/product/moringa-powder", "phone", "light");
    await shopper.page.getByRole("button", { name: "Add to cart" }).click();
    await shopper.page.getByText("Moringa Powder was added to cart!").waitFor();
    await shopper.page.goto("/cart");
    await shopper.page.getByRole("button", { name: "Increase quantity of Moringa Powder" }).click();
    await shopper.page.getByTestId("cart-subtotal").getByText("₹500").waitFor();
    await shopper.page.getByLabel("Discount code").fill("GLOW20");
    await shopper.page.getByRole("button", { name: "Apply" }).click();
    await shopper.page.getByTestId("cart-discount").getByText("−₹100").waitFor();
    await shopper.page.getByTestId("cart-shipping").getByText("Free").waitFor();
    expect(await shopper.page.getByTestId("cart-total").textContent()).toBe("₹400");
    await shopper.close();
  });
});
