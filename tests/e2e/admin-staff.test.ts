import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, screenshot } from "../fixtures.ts";
import { ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;

ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});
beforeAll(async () => {
  await signUpViaHttp(shop.url, "asha@example.in");
});

async function ownerPage(viewport: "phone" | "desktop", colorScheme: "light" | "dark") {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto("/admin/staff");
  await page.getByRole("heading", { name: "Staff", exact: true }).waitFor();
  return { page, close: () => context.close() };
}

const card = (page: Page, email: string) =>
  page
    .getByRole("list", { name: "People with admin access" })
    .getByRole("listitem")
    .filter({ hasText: email });

describe("the owner's staff page", () => {
  it("gives an account access by e-mail, changes it, takes it away, and never removes the only owner", async () => {
    const { page, close } = await ownerPage("phone", "light");
    // Staff is among the owner's sections, the current one (on a phone, named on the folded sections' button).
    expect(await page.getByRole("button", { name: "Sections: Staff" }).count()).toBe(1);
    await page.getByLabel("E-mail of their account").fill("nobody@example.in");
    await page.getByRole("button", { name: "Give access" }).click();
    await page.getByText("No account uses nobody@example.in").first().waitFor();

    await page.getByLabel("E-mail of their account").fill("Asha@Example.in");
    await page.getByRole("button", { name: "Give access" }).click();
    await page.getByRole("status").getByText("asha@example.in is now staff.").waitFor();
    await card(page, "asha@example.in").getByText("Staff", { exact: true }).waitFor();

    await card(page, "asha@example.in")
      .getByRole("button", { name: /Make an owner/ })
      .click();
    await page.getByRole("status").getByText("asha@example.in is now an owner.").waitFor();
    await card(page, "asha@example.in").getByText("Owner", { exact: true }).waitFor();
    await screenshot(page, "admin-staff-375-light-two-owners");

    await card(page, "asha@example.in")
      .getByRole("button", { name: /Remove access/ })
      .click();
    await card(page, "asha@example.in").getByRole("button", { name: "Remove access", exact: true }).click();
    await page.getByRole("status").getByText("asha@example.in no longer has admin access").waitFor();
    await card(page, "asha@example.in").waitFor({ state: "detached" });

    await card(page, "owner@example.in")
      .getByRole("button", { name: /Remove access/ })
      .click();
    await card(page, "owner@example.in").getByRole("button", { name: "Remove access", exact: true }).click();
    await page.getByRole("alert").getByText("is the shop's only owner, and a shop needs one").waitFor();
    await card(page, "owner@example.in").getByText("Owner", { exact: true }).waitFor();
    await close();
  });

  it("is looked at on a phone and a wide screen, light and dark, without sideways scrolling", async () => {
    // One page shown at each width and in each theme.
    const { page, close } = await ownerPage("phone", "light");
    await inEachView(page, EVERY_VIEW, async (viewport, scheme) => {
      await card(page, "owner@example.in").waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${viewport} ${scheme} scrolls sideways`).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-staff-${viewport}-${scheme}`);
    });
    await close();
  });
});
