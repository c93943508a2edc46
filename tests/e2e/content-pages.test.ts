import type { Browser } from "playwright-core";
import { describe, expect } from "vitest";
import { expectTitle, openPage, type Shop, screenshot, VIEWPORTS } from "../fixtures.ts";
import { fetchPage, h1Of, mainOf, metaOf, titleOf, visibleText } from "../page-html.ts";
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
    const page = await fetchPage(shop, path);
    expect(h1Of(page)).toEqual([heading]);
    expect(titleOf(page)).toBe(`${heading} | Vanya Herbals`);

    const main = mainOf(page);
    const text = visibleText(main);
    expect(text).not.toMatch(/\{(phone|email|shopName)\}/);
    expect(text).not.toContain("Prakriti");
    expect(text).toContain(SHOP.SHOP_EMAIL);
    const email = main.querySelector(`a[href="mailto:${SHOP.SHOP_EMAIL}"]`);
    expect(email?.textContent).toBe(SHOP.SHOP_EMAIL);
    expect(text).toContain(SHOP.SHOP_PHONE);
    expect(main.querySelector('a[href="tel:+919000011111"]')?.textContent).toBe(SHOP.SHOP_PHONE);
  });

  it("states the specification's numbers on the shipping and refund pages", async () => {
    const shipping = visibleText(mainOf(await fetchPage(shop, "/shipping-delivery")));
    expect(shipping).toContain("We hand your order to the courier or speed post within 3-5 days");
    const refunds = visibleText(mainOf(await fetchPage(shop, "/cancellation-refund")));
    expect(refunds).toContain("within 6-8 days of placing it, as long as it has not yet been shipped");
    expect(refunds).toContain("report it within 6-8 days of receipt");
    expect(refunds).toContain("it is processed within 6-8 days");
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
    const page = await fetchPage(shop, "/privacy");
    expect(titleOf(page)).toBe("Privacy Policy | Vanya Herbals");
    expect(metaOf(page, "description")).toMatch(
      /^This policy explains what personal data Vanya Herbals collects/,
    );
  });
});

describe("the blog", () => {
  it("lists the four articles, newest first, with their dates and descriptions", async () => {
    const page = await fetchPage(shop, "/blog");
    expect(titleOf(page)).toBe("Blog | Vanya Herbals");
    const main = mainOf(page);
    expect(main.querySelectorAll("li article")).toHaveLength(4);
    expect(main.querySelectorAll("li article h2").map((h2) => h2.textContent)).toEqual([
      "Ubtan and herbal bath powders for children and adults",
      "How to use a henna and indigo hair dye at home",
      "A simple weekly natural hair-care routine with oil, hair pack and wash powder",
      "Moringa, curry leaves and sathu maavu in everyday Indian cooking",
    ]);
    expect(main.querySelectorAll("li article time").map((time) => time.textContent)).toEqual([
      "20 October 2026",
      "14 September 2026",
      "22 July 2026",
      "18 June 2026",
    ]);
    const [first] = main.querySelectorAll("li article").map(visibleText);
    expect(first).toContain("How to use gram flour, turmeric and herbal bath powders in place of soap");
    expect(first).toContain("The Vanya Herbals team");
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
    const page = await fetchPage(shop, "/blog/how-to-grow-a-beard");
    expect(h1Of(page)).toEqual(["We couldn't find that article"]);
    expect(titleOf(page)).toBe("Article not found | Vanya Herbals");
    expect(mainOf(page).querySelectorAll('a[href^="/blog/"]')).toHaveLength(4);
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
