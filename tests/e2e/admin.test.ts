import type { Browser, Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, signUpViaHttp, TEST_PASSWORD, type TestAccount } from "../accounts.ts";
import { type Shop, screenshot, VIEWPORTS } from "../fixtures.ts";
import { contextOn, it, uniqueEmail } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let customer: TestAccount;

it.beforeAll(async ({ shop: workerShop, browser: workerBrowser, owner: workerOwner }) => {
  shop = workerShop;
  browser = workerBrowser;
  owner = workerOwner;
  customer = await signUpViaHttp(shop.url, uniqueEmail("customer"));
});

async function signInAtAdminLogin(page: Page, email: string) {
  await page.getByRole("heading", { name: "Admin sign-in" }).waitFor();
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("the admin side", () => {
  it("sends a signed-out visitor to the admin sign-in, and an admin on to the dashboard", async () => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/admin/orders");
    await page.waitForURL("**/admin/login?redirectTo=%2Fadmin%2Forders");
    await page.getByText("This is the sign-in for the shop's staff.").waitFor();
    await signInAtAdminLogin(page, owner.email);
    await page.waitForURL("**/admin/orders");
    await page.getByRole("navigation", { name: "Admin sections" }).waitFor();

    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    const figures = page.getByRole("definition");
    expect(await figures.allTextContents()).toContain("21");
    expect(await page.getByText("Customers").count()).toBe(1);
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    for (const section of ["Orders", "Questions", "Reviews", "Messages"]) {
      await nav.getByRole("link", { name: section }).click();
      await page.waitForURL(`**/admin/${section.toLowerCase()}`);
      // The section's link is marked as the current page once the page has rendered.
      await nav.locator('a[aria-current="page"]', { hasText: section }).waitFor();
      expect(await nav.locator('a[aria-current="page"]').count()).toBe(1);
    }
    await context.close();
  });

  it("tells a customer who signs in there that the account has no admin access", async () => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/admin/login");
    await signInAtAdminLogin(page, customer.email);
    await page.getByRole("alert").getByText("This account has no admin access.").waitFor();
    await screenshot(page, "admin-login-no-access");

    // Admin pages say the same, and the API refuses on its own.
    await page.goto("/admin");
    await page.getByRole("heading", { name: "No admin access" }).waitFor();
    await page.getByText("This account has no admin access.").waitFor();
    const status = await page.evaluate(async () => (await fetch("/api/admin/summary")).status);
    expect(status).toBe(403);
    await screenshot(page, "admin-no-access");
    await context.close();
  });

  it("shows the dashboard at 375 and 1280 px, light and dark", async () => {
    // One page shown at each width and in each theme.
    const context = await contextOn(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, owner);
    const page = await context.newPage();
    await page.goto("/admin");
    await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
      await page.getByRole("heading", { name: "Dashboard" }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-dashboard-${VIEWPORTS[viewport].width}-${colorScheme}`);
    });
    await context.close();
  });
});
