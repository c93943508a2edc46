import type { Browser } from "playwright-core";
import sharp from "sharp";
import { describe, expect } from "vitest";
import { signInContext, type TestAccount } from "../accounts.ts";
import { type Shop, screenshot, scrollThrough, shoot } from "../fixtures.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;

// A shop of its own: the combo's new picture is what every visitor sees.
ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});

const sidewaysOverflow = (page: import("playwright-core").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// Eight screens and an upload in one journey: more than a minute on a busy two-core machine.
describe("a combo's own picture", () => {
  it("is uploaded by the owner and replaces the products' pictures on the card and page", async () => {
    const context = await contextOn(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, owner);
    const page = await context.newPage();
    await page.goto("/admin/combos?edit=skincare-combo");
    const form = page.getByRole("form", { name: /^Edit / });
    await form.waitFor();
    const photo = await sharp({
      create: { width: 1000, height: 700, channels: 3, background: { r: 214, g: 160, b: 90 } },
    })
      .jpeg()
      .toBuffer();
    await form
      .locator('input[type="file"]')
      .setInputFiles({ name: "box.jpg", mimeType: "image/jpeg", buffer: photo });
    await form.getByRole("button", { name: "Replace picture" }).waitFor();
    const preview = await form.getByRole("img", { name: "Shown for this combo" }).getAttribute("src");
    expect(preview).toMatch(/^\/images\/uploads\/[0-9a-f]{32}-400\.webp$/);
    await screenshot(page, "combo-picture-editor-375-light");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.waitFor({ state: "detached" });
    await context.close();

    // The home page loaded once and the combo's page once, each shown at each width and in each theme.
    const shopper = await contextOn(browser, shop, { viewport: "phone" });
    const home = await shopper.newPage();
    await home.goto("/");
    await inEachView(home, EVERY_VIEW, async (viewport, scheme) => {
      await scrollThrough(home);
      const card = home.locator("#combos article").filter({ hasText: "Skincare" }).first();
      await card.waitFor();
      await expect
        .poll(async () => card.locator("img").first().getAttribute("src"), { timeout: 10_000 })
        .toBe(preview);
      expect(await card.getByRole("list", { name: "In this combo" }).count()).toBe(0);
      await card.scrollIntoViewIfNeeded();
      expect(await sidewaysOverflow(home)).toBeLessThanOrEqual(0);
      await shoot(card, { path: `/tmp/owner-rest-shots/combo-card-${viewport}-${scheme}.png` });
    });
    await home.goto("/combo/skincare-combo");
    const large = preview?.replace("-400.webp", "-800.webp");
    await inEachView(home, EVERY_VIEW, async (viewport, scheme) => {
      await home.locator(`main img[src="${large}"]`).waitFor();
      await screenshot(home, `combo-picture-page-${viewport}-${scheme}`);
    });
    await shopper.close();
  }, 120_000);
});
