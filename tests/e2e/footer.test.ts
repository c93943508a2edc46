import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newContext, type Shop, scrollThrough, shoot } from "../fixtures.ts";
import { ownShopForFile } from "../shop-test.ts";

let shop: Shop;
let browser: Browser;

ownShopForFile(
  (started) => {
    ({ shop, browser } = started);
  },
  // Phone and e-mail come from the server's configuration, never from the bundle.
  { SHOP_PHONE: "+91 90000 12345", SHOP_EMAIL: "help@example-shop.in" },
);

const footer = (page: Page) => page.getByRole("contentinfo");

describe("the footer", () => {
  it("opens the Shipping and Returns pop-ups with the policy text, and closes them", async () => {
    const context = await newContext(browser, shop);
    const page = await context.newPage();
    await page.goto("/");
    await scrollThrough(page);

    const shippingButton = footer(page).getByRole("button", { name: "Shipping" });
    await shippingButton.click();
    const shipping = page.getByRole("dialog", { name: "Shipping" });
    await shipping.waitFor();
    const shippingText = await shipping.textContent();
    for (const part of [
      "registered courier",
      "speed post",
      "within 3-5 days",
      "not liable",
      "e-mail",
      "International and domestic",
    ]) {
      expect(shippingText).toContain(part);
    }
    expect(await shipping.getByRole("link", { name: "+91 90000 12345" }).getAttribute("href")).toBe(
      "tel:+919000012345",
    );
    expect(await shipping.getByRole("link", { name: "help@example-shop.in" }).getAttribute("href")).toBe(
      "mailto:help@example-shop.in",
    );
    await shoot(page, { path: "test-results/screenshots/home-shipping-dialog-desktop.png" });
    await shipping.getByRole("button", { name: "Close" }).click();
    await shipping.waitFor({ state: "hidden" });
    // Focus goes back to the button that opened it.
    expect(await shippingButton.evaluate((element) => element === document.activeElement)).toBe(true);

    await footer(page).getByRole("button", { name: "Returns" }).click();
    const returns = page.getByRole("dialog", { name: "Returns and cancellations" });
    await returns.waitFor();
    const rules = await returns.getByRole("listitem").allTextContents();
    expect(rules).toHaveLength(5);
    expect(rules[0]).toContain("within 6-8 days of ordering");
    expect(rules[0]).toContain("not been shipped");
    expect(rules[1]).toContain("Perishable items");
    expect(rules[2]).toContain("within 6-8 days");
    expect(rules[3]).toContain("manufacturer");
    expect(rules[4]).toContain("Approved refunds are processed within 6-8 days");
    await page.keyboard.press("Escape");
    await returns.waitFor({ state: "hidden" });
    await context.close();
  });

  it("has the brand, social buttons, care contacts, company and policy links, copyright and credit", async () => {
    const context = await newContext(browser, shop, { viewport: "phone", colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/");
    await scrollThrough(page);
    const foot = footer(page);
    for (const name of ["Facebook", "Instagram", "YouTube", "Twitter"]) {
      await foot.getByRole("button", { name }).waitFor();
    }
    expect(await foot.getByRole("link", { name: /90000 12345/ }).getAttribute("href")).toBe(
      "tel:+919000012345",
    );
    expect(await foot.getByRole("link", { name: /help@example-shop\.in/ }).getAttribute("href")).toBe(
      "mailto:help@example-shop.in",
    );
    const policies = Object.fromEntries(
      await Promise.all(
        ["Privacy Policy", "Terms & Conditions", "Cookie Policy", "Shipping & Delivery", "Refund Policy"].map(
          async (name) => [name, await foot.getByRole("link", { name }).getAttribute("href")],
        ),
      ),
    );
    expect(policies).toEqual({
      "Privacy Policy": "/privacy",
      "Terms & Conditions": "/terms",
      "Cookie Policy": "/cookie-policy",
      "Shipping & Delivery": "/shipping-delivery",
      "Refund Policy": "/cancellation-refund",
    });
    // Find my order for a guest; it sends a signed-in shopper on to My Orders (issue 15).
    expect(await foot.getByRole("link", { name: "Track order" }).getAttribute("href")).toBe("/find-order");
    expect(await foot.getByRole("link", { name: "Hair care" }).getAttribute("href")).toBe(
      "/?category=haircare#featured",
    );
    expect(await foot.textContent()).toMatch(
      new RegExp(`© ${new Date().getFullYear()} Prakriti Naturals. All rights reserved.`),
    );

    await foot.getByRole("button", { name: "Returns" }).click();
    await page.getByRole("dialog", { name: "Returns and cancellations" }).waitFor();
    await shoot(page, { path: "test-results/screenshots/home-returns-dialog-phone-dark.png" });
    await page.keyboard.press("Escape");

    // Category links open the grid filtered to that category.
    await foot.getByRole("link", { name: "Skin care" }).click();
    await page.waitForURL("**/?category=skincare#featured");
    await page.locator("#featured").getByText("Showing 1–4 of 4 products").waitFor();
    await context.close();
  });
});
