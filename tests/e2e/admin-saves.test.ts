import type { Browser } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, type TestAccount } from "../accounts.ts";
import type { ColorScheme, Shop, Viewport } from "../fixtures.ts";
import { screenshotLightAndDark } from "../fixtures.ts";
import { typeShopDetails } from "../forms.ts";
import { REGISTERED_SHOP } from "../shop-details.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";

/**
 * Issue 41, point 7: on a screen of several sections, each with its own Save, no save drops another's edit.
 * A section with changes says "Not saved yet", a save elsewhere names what is still unsaved, leaving asks
 * first, and what a save said was saved is there after a reload.
 */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;

// A shop of its own: it saves the shop's settings, slides and cash-on-delivery rules, which every visitor sees.
ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});

async function ownerAt(path: string, heading: string, viewport: Viewport, colorScheme: ColorScheme) {
  const context = await contextOn(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  return { page, close: () => context.close() };
}

describe("an admin screen with two Saves", () => {
  it("settings: saving the slides says the shop name is not saved, leaving asks first, and the name saved stays after a reload (1280 px)", async () => {
    const { page, close } = await ownerAt("/admin/settings", "Settings", "desktop", "light");
    const settings = page.getByRole("form", { name: "Shop settings" });
    const slides = page.getByRole("form", { name: "Home page slides" });
    await settings.getByLabel("Shop name").fill("Vanya Naturals");
    await settings.getByText("Not saved yet").waitFor();

    await slides.getByRole("button", { name: "Save slides" }).click();
    await slides
      .getByText(
        /^Slides saved\. The home page shows \d+ now\. Shop settings still has changes not saved: save it too, or they are lost when you leave this page\.$/,
      )
      .waitFor();
    expect(await settings.getByLabel("Shop name").inputValue()).toBe("Vanya Naturals");
    await screenshotLightAndDark(page, "admin-saves-settings-desktop");

    // Leaving through the menu asks; staying keeps the page and what was typed.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    expect(asked).toEqual(["Shop settings has changes not saved. Leave this page and lose them?"]);
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    expect(await settings.getByLabel("Shop name").inputValue()).toBe("Vanya Naturals");

    await settings.getByRole("button", { name: "Save settings" }).click();
    await settings
      .getByText(/^Saved\. Shoppers see it now: shipping ₹[\d,]+, free from ₹[\d,]+\.$/)
      .waitFor();
    expect(await page.getByText("Not saved yet").count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    expect(await page.getByRole("form", { name: "Shop settings" }).getByLabel("Shop name").inputValue()).toBe(
      "Vanya Naturals",
    );
    // Saved, nothing asks any more.
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await close();
  });

  it("COD rules: a reward chosen and the other Save tapped is named as not saved, and saved with its own Save it is there after a reload (375 px)", async () => {
    const { page, close } = await ownerAt("/admin/cod/rules", "Cash-on-delivery rules", "phone", "dark");
    const reward = page.getByRole("form", { name: "Reward for paying online" });
    await reward.getByRole("radio", { name: "A percentage off" }).check();
    await reward.getByLabel("Percent off (1-50)").fill("5");
    await reward.getByText("Not saved yet").waitFor();

    await page.getByRole("button", { name: "Save settings" }).click();
    await page
      .getByText(
        "Cash-on-delivery settings saved; checkout follows them now. Reward for paying online still has changes not saved: save it too, or they are lost when you leave this page.",
      )
      .waitFor();
    await screenshotLightAndDark(page, "admin-saves-cod-rules-phone");

    await reward.getByRole("button", { name: "Save reward" }).click();
    await page.getByText(/^Saved: 5% off.*Checkout shows it now\.$/).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Cash-on-delivery rules", level: 1 }).waitFor();
    await page
      .getByRole("form", { name: "Reward for paying online" })
      .getByText(/Now: 5% off/)
      .waitFor();
    await close();
  });

  it("the shop: the banner saved while the seller's details hold changes says so, and both are kept (375 px)", async () => {
    const { page, close } = await ownerAt("/admin/shop", "The shop", "phone", "light");
    const banner = page.getByRole("form", { name: "Promo banner" });
    const details = page.getByRole("form", { name: "Shop details" });
    await typeShopDetails(details, {
      ...REGISTERED_SHOP,
      legalName: "Vanya Naturals Private Limited",
      grievanceOfficerEmail: "grievance@vanya.in",
    });
    await banner.getByLabel("Headline").fill("Monsoon care: 10% off oils");

    await banner.getByRole("button", { name: "Save banner" }).click();
    await banner.getByText(/Seller details still has changes not saved: save it too/).waitFor();
    expect(await details.getByLabel("Legal name").inputValue()).toBe("Vanya Naturals Private Limited");
    await details.getByRole("button", { name: "Save details" }).click();
    await details.getByText(/^Saved\. The shop shows the new details now\.$/).waitFor();

    await page.reload();
    await page.getByRole("heading", { name: "The shop", level: 1 }).waitFor();
    expect(await page.getByRole("form", { name: "Shop details" }).getByLabel("Legal name").inputValue()).toBe(
      "Vanya Naturals Private Limited",
    );
    expect(await page.getByRole("form", { name: "Promo banner" }).getByLabel("Headline").inputValue()).toBe(
      "Monsoon care: 10% off oils",
    );
    await close();
  });
});
