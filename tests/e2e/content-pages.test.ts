import type { Browser } from "playwright-core";
import { describe, expect } from "vitest";
import { expectTitle, openPage, type Shop, screenshot, VIEWPORTS } from "../fixtures.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

// Not the defaults: the pages must show what the environment says.
const SHOP = { SHOP_NAME: "Vanya Herbals", SHOP_PHONE: "+91 90000 11111", SHOP_EMAIL: "help@vanya.example" };

let shop: Shop;
let browser: Browser;

// A shop of its own: its name, phone and e-mail come from its environment.
ownShopForFile((started) => {
  ({ shop, browser } = started);
}, SHOP);

const POLICY_PAGES = [
  ["/contact", "Contact Us"],
  ["/privacy", "Privacy Policy"],
  ["/terms", "Terms and Conditions"],
  ["/cookie-policy", "Cookie Policy"],
  ["/shipping-delivery", "Shipping and Delivery Policy"],
  ["/cancellation-refund", "Cancellation and Refund Policy"],
] as const;

describe("the policy pages", () => {
  it.each(POLICY_PAGES)("%s shows %s with the shop's own name, phone and e-mail", async (path, heading) => {
    const { page, close } = await openPage(browser, shop, path);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(heading);
    await expectTitle(page, `${heading} | Vanya Herbals`);
    await expect(page.getByRole("heading", { level: 1 }).count()).resolves.toBe(1);

    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/\{(phone|email|shopName)\}/);
    expect(text).not.toContain("Prakriti");
    expect(text).toContain(SHOP.SHOP_EMAIL);
    const email = page.locator(`main a[href="mailto:${SHOP.SHOP_EMAIL}"]`).first();
    await expect(email.textContent()).resolves.toBe(SHOP.SHOP_EMAIL);
    expect(text).toContain(SHOP.SHOP_PHONE);
    await expect(page.locator('main a[href="tel:+919000011111"]').first().textContent()).resolves.toBe(
      SHOP.SHOP_PHONE,
    );
    await close();
  });

  it("states the specification's numbers on the shipping and refund pages", async () => {
    const { page, close } = await openPage(browser, shop, "/shipping-delivery");
    await expect(page.locator("main").innerText()).resolves.toContain(
      "We hand your order to the courier or speed post within 3-5 days",
    );
    await page.goto("/cancellation-refund");
    await page.getByRole("heading", { name: "Cancellation and Refund Policy" }).waitFor();
    const refunds = await page.locator("main").innerText();
    expect(refunds).toContain("within 6-8 days of placing it, as long as it has not yet been shipped");
    expect(refunds).toContain("report it within 6-8 days of receipt");
    expect(refunds).toContain("it is processed within 6-8 days");
    await close();
  });

  it("links one policy to another without reloading the app", async () => {
    const { page, close } = await openPage(browser, shop, "/terms");
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.locator("main article").getByRole("link", { name: "Privacy Policy" }).click();
    await page.waitForURL("**/privacy");
    await page.getByRole("heading", { level: 1, name: "Privacy Policy" }).waitFor();
    await expect(page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).resolves.toBe(true);
    await close();
  });

  it("sets each page's meta description from its first paragraph, with placeholders filled", async () => {
    const { page, close } = await openPage(browser, shop, "/privacy");
    await expectTitle(page, "Privacy Policy | Vanya Herbals"); // set together with the description
    const description = await page
      .locator('meta[name="description"]')
      .evaluate((meta: HTMLMetaElement) => meta.content);
    expect(description).toMatch(/^This policy explains what personal data Vanya Herbals collects/);
    await close();
  });
});

describe("the blog", () => {
  it("lists the four articles, newest first, with their dates and descriptions", async () => {
    const { page, close } = await openPage(browser, shop, "/blog");
    await expectTitle(page, "Blog | Vanya Herbals");
    const articles = page.locator("main li article");
    await expect(articles.count()).resolves.toBe(4);
    await expect(articles.locator("h2").allTextContents()).resolves.toEqual([
      "Ubtan and herbal bath powders for children and adults",
      "How to use a henna and indigo hair dye at home",
      "A simple weekly natural hair-care routine with oil, hair pack and wash powder",
      "Moringa, curry leaves and sathu maavu in everyday Indian cooking",
    ]);
    await expect(articles.locator("time").allTextContents()).resolves.toEqual([
      "20 October 2026",
      "14 September 2026",
      "22 July 2026",
      "18 June 2026",
    ]);
    await expect(articles.first().innerText()).resolves.toContain(
      "How to use gram flour, turmeric and herbal bath powders in place of soap",
    );
    await expect(articles.first().innerText()).resolves.toContain("The Vanya Herbals team");
    await close();
  });

  it("opens an article from the index and moves on to another", async () => {
    const { page, close } = await openPage(browser, shop, "/blog");
    await page.getByRole("link", { name: "How to use a henna and indigo hair dye at home" }).click();
    await page.waitForURL("**/blog/henna-indigo-hair-dye-at-home");
    await page
      .getByRole("heading", { level: 1, name: "How to use a henna and indigo hair dye at home" })
      .waitFor();
    await expectTitle(page, "How to use a henna and indigo hair dye at home | Vanya Herbals");
    const text = await page.locator("main").innerText();
    expect(text).toContain("By the Vanya Herbals team · 14 September 2026");
    expect(text).toContain("Before you begin: the patch test");
    expect(text).not.toMatch(/\{shopName\}|^---|\*\*/m);
    await expect(page.getByRole("heading", { level: 2, name: "Step one: henna" }).isVisible()).resolves.toBe(
      true,
    );

    const more = page.getByRole("region", { name: "More from our blog" });
    await expect(more.getByRole("link").count()).resolves.toBe(4); // three others and All articles
    await more.getByRole("link", { name: /Moringa, curry leaves/ }).click();
    await page.waitForURL("**/blog/moringa-curry-leaves-sathu-maavu-in-indian-kitchens");
    await page.getByRole("heading", { level: 1, name: /Moringa, curry leaves/ }).waitFor();
    await close();
  });

  it("answers an unknown article with the list of articles", async () => {
    const { page, close } = await openPage(browser, shop, "/blog/how-to-grow-a-beard");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "We couldn't find that article",
    );
    await expectTitle(page, "Article not found | Vanya Herbals");
    await expect(page.locator('main a[href^="/blog/"]').count()).resolves.toBe(4);
    await close();
  });
});

describe("content pages on every screen", () => {
  it("fit 375, 768 and 1280 px in light and dark, and get screenshots", async () => {
    const pages = {
      policy: "/shipping-delivery",
      blog: "/blog",
      article: "/blog/weekly-natural-hair-care-routine",
    };
    // Each page loaded once and shown at each width and in each theme (the window resized and the system
    // setting switched under it).
    const context = await contextOn(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(path);
      await page.locator("main h1").waitFor();
      await inEachView(page, viewsAt(["phone", "tablet", "desktop"]), async (viewport, colorScheme) => {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${path} at ${viewport}, ${colorScheme}`).toBeLessThanOrEqual(
          VIEWPORTS[viewport].width,
        );
        if (viewport !== "tablet") {
          await screenshot(page, `${name}-${viewport === "phone" ? 375 : 1280}-${colorScheme}`);
        }
      });
    }
    await context.close();
  });
});
