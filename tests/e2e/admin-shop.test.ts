import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { shopDetails } from "../../server/db/schema.ts";
import type { TestAccount } from "../accounts.ts";
import { showColorScheme } from "../color-scheme.ts";
import {
  newContext,
  type Shop,
  type ShopDatabase,
  scrollThrough,
  shoot,
  sidewaysOverflow,
  waitForApp,
} from "../fixtures.ts";
import { registerShopForGst, TEST_GSTIN } from "../shop-details.ts";
import { ownShopForFile } from "../shop-test.ts";
import { openSignedInPage } from "../signed-in-page.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let database: ShopDatabase;

ownShopForFile((started) => {
  ({ shop, browser, owner, database } = started);
});

/** Looked at by a person after the run: /tmp/admin-shop-<name>.png. */
const shot = (page: Page, name: string) =>
  shoot(page, { path: `/tmp/admin-shop-${name}.png`, fullPage: true });

async function ownerPage(
  path: string,
  viewport: "phone" | "desktop" = "desktop",
  colorScheme: "light" | "dark" = "light",
) {
  return openSignedInPage(browser, shop, owner, path, { viewport, colorScheme });
}

async function shopperPage(
  path: string,
  viewport: "phone" | "desktop" = "desktop",
  colorScheme: "light" | "dark" = "light",
) {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  const page = await context.newPage();
  await page.goto(path);
  await waitForApp(page);
  return { page, close: () => context.close() };
}

describe("the owner runs the shop from /admin/shop", () => {
  it("changes the banner, and a shopper sees the new offer at once", async () => {
    const { page, close } = await ownerPage("/admin/shop", "phone");
    const form = page.getByRole("form", { name: "Promo banner" });
    expect(await form.getByLabel("Discount code (optional)").inputValue()).toBe("GLOW20");
    await form.getByLabel("Headline").fill("Monsoon sale: 15% off");
    await form.getByLabel("More text (optional)").fill("on orders of ₹1,000 or more.");
    await form.getByLabel("Discount code (optional)").fill("nosuch");
    await form.getByLabel("Minimised label").fill("15% OFF");
    await form.getByRole("button", { name: "Save banner" }).click();
    await form.getByText("There is no discount code NOSUCH.").waitFor();
    await form.getByLabel("Discount code (optional)").fill("save15");
    await form.getByRole("button", { name: "Save banner" }).click();
    await form.getByText("Saved. The shop shows the new banner now.").waitFor();
    await close();

    const shopper = await shopperPage("/");
    const banner = shopper.page.getByRole("region", { name: "Offer" });
    expect(await banner.textContent()).toContain(
      "Monsoon sale: 15% off on orders of ₹1,000 or more. Use code SAVE15 at checkout.",
    );
    await banner.getByRole("button", { name: "Minimise offer banner" }).click();
    await shopper.page.getByRole("button", { name: "15% OFF - Click to expand" }).waitFor();
    await shopper.close();
  });

  it("enters the seller's details, refused first for a GSTIN of another state, and the contact page and footer show them", async () => {
    const { page, close } = await ownerPage("/admin/shop", "desktop");
    const form = page.getByRole("form", { name: "Shop details" });
    await form.getByLabel("Legal name").fill("Prakriti Naturals Private Limited");
    await form.getByLabel("Registered address").fill("Plot 14, Shivaji Industrial Estate");
    await form.getByLabel("Address, second line (optional)").fill("Baner Road");
    await form.getByLabel("City").fill("Pune");
    await form.getByLabel("PIN code").fill("411045");
    await form.getByLabel("State").selectOption("Maharashtra");
    // A Karnataka GSTIN (29) for a Maharashtra address.
    await form.getByLabel("GSTIN").fill("29AAGCB7383J1Z4");
    await form.getByLabel("FSSAI licence number").fill("11523998000123");
    await form.getByLabel("Grievance officer's name").fill("Meera Kulkarni");
    await form.getByLabel("Grievance officer's e-mail").fill("grievance@prakritinaturals.in");
    await form.getByRole("button", { name: "Save details" }).click();
    await form.getByText("This GSTIN is registered in state code 29, not Maharashtra (27).").waitFor();
    expect(await form.getByLabel("GSTIN").getAttribute("aria-invalid")).toBe("true");
    await shot(page, "details-error-1280-light");

    await form.getByLabel("GSTIN").fill("27aapfu0939f1zv");
    await form.getByRole("button", { name: "Save details" }).click();
    await form.getByText("Saved. The shop shows the new details now.").waitFor();
    await close();

    const shopper = await shopperPage("/contact", "phone");
    const seller = shopper.page.getByRole("region", { name: "Seller details" });
    const text = await seller.textContent();
    for (const expected of [
      "Prakriti Naturals Private Limited",
      "Plot 14, Shivaji Industrial Estate, Baner Road, Pune 411045, Maharashtra",
      "27AAPFU0939F1ZV",
      "11523998000123",
      "Meera Kulkarni",
      "grievance@prakritinaturals.in",
    ]) {
      expect(text).toContain(expected);
    }
    await scrollThrough(shopper.page);
    const footerLine = await shopper.page.getByTestId("seller-line").textContent();
    expect(footerLine).toContain("GSTIN 27AAPFU0939F1ZV");
    expect(footerLine).toContain("FSSAI Lic. No. 11523998000123");
    expect(footerLine).toContain("Registered office: Plot 14, Shivaji Industrial Estate");
    // The policy pages name the officer's own address.
    expect(await shopper.page.getByRole("main").textContent()).toContain(
      "Grievance Officer at grievance@prakritinaturals.in",
    );
    await shopper.close();
  });

  it("fills the city and state from the PIN code, and keeps a city the owner typed", async () => {
    for (const [viewport, scheme] of [
      ["phone", "light"],
      ["desktop", "dark"],
    ] as const) {
      const { page, close } = await ownerPage("/admin/shop", viewport, scheme);
      const form = page.getByRole("form", { name: "Shop details" });
      await form.getByLabel("City").fill("");
      await form.getByLabel("PIN code").fill("110001");
      await expect.poll(() => form.getByLabel("City").inputValue()).toBe("New Delhi");
      await expect.poll(() => form.getByLabel("State").inputValue()).toBe("Delhi");
      // The city it filled belongs to the old PIN: a new PIN replaces it.
      await form.getByLabel("PIN code").fill("411045");
      await expect.poll(() => form.getByLabel("City").inputValue()).toBe("Pune");
      await expect.poll(() => form.getByLabel("State").inputValue()).toBe("Maharashtra");
      await shot(page, `details-pin-${viewport}-${scheme}`);
      await form.getByLabel("City").fill("Baner");
      await form.getByLabel("PIN code").fill("411007");
      await expect.poll(() => form.getByLabel("State").inputValue()).toBe("Maharashtra");
      expect(await form.getByLabel("City").inputValue()).toBe("Baner");
      await close();
    }
  });

  it("warns before a blank GSTIN stops tax invoices, and saves it all the same", async () => {
    await registerShopForGst(database.db);
    // A page per width, shown in both themes (the system setting switched under it).
    for (const viewport of ["phone", "desktop"] as const) {
      const { page, close } = await ownerPage("/admin/shop", viewport);
      const form = page.getByRole("form", { name: "Shop details" });
      const warning = form.getByRole("alert").filter({ hasText: "Tax invoices stop" });
      for (const scheme of ["light", "dark"] as const) {
        await showColorScheme(page, scheme);
        expect(await form.getByLabel("GSTIN").inputValue()).toBe(TEST_GSTIN);
        expect(await warning.count()).toBe(0);
        await form.getByLabel("GSTIN").fill("");
        await warning.waitFor();
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await shot(page, `gstin-blank-${viewport}-${scheme}`);
        // Typed back, the warning goes.
        await form.getByLabel("GSTIN").fill(TEST_GSTIN);
        await warning.waitFor({ state: "detached" });
      }
      await close();
    }
    const { page, close } = await ownerPage("/admin/shop", "phone");
    const form = page.getByRole("form", { name: "Shop details" });
    await form.getByLabel("GSTIN").fill("");
    await form.getByRole("button", { name: "Save details" }).click();
    await form.getByText("Saved. The shop shows the new details now.").waitFor();
    // Saved without one: nothing left to warn about, once the page has read the saved details back.
    await form.getByRole("alert").filter({ hasText: "Tax invoices stop" }).waitFor({ state: "detached" });
    const [row] = await database.db.select({ gstin: shopDetails.gstin }).from(shopDetails);
    expect(row?.gstin).toBeNull();
    await close();
    await registerShopForGst(database.db);
  });

  it("creates a combo of products from the catalogue, refused first for a sale price above their total, and it appears on the home page", async () => {
    const { page, close } = await ownerPage("/admin/combos", "phone");
    await page.getByRole("link", { name: "New combo" }).click();
    const form = page.getByRole("form", { name: "New combo" });
    await form.getByLabel("Title").fill("Festive Gift Combo");
    await form.getByLabel("Description").fill("Badam Mix and Bath Powder, boxed for the festival season.");
    await form.getByLabel("Badge").selectOption("Family Pack");
    await form.getByLabel("Benefit 1").fill("Ready to gift");
    await form.getByLabel("Benefit 2").fill("For the whole family");
    await form.getByLabel("Benefit 3").fill("Eco-friendly box");
    await form.getByLabel(/^Badam Mix/).check();
    await form.getByLabel(/^Bath Powder/).check();
    await form.getByLabel("Stock").fill("25");
    const total = await form.getByTestId("combo-original").textContent();
    const totalRupees = Number((total ?? "").replace(/[^0-9]/g, ""));
    expect(totalRupees).toBeGreaterThan(100);
    await form.getByLabel("Sale price (₹)").fill(String(totalRupees + 50));
    await form.getByRole("button", { name: "Create combo" }).click();
    await form.getByText(/The sale price must be below the products' total/).waitFor();
    await shot(page, "combo-error-375-light");

    await form.getByLabel("Sale price (₹)").fill(String(totalRupees - 100));
    expect(await form.getByTestId("combo-savings").textContent()).toBe("₹100");
    await form.getByRole("button", { name: "Create combo" }).click();
    const card = page
      .getByRole("list", { name: "Combos" })
      .getByRole("listitem")
      .filter({ hasText: "Festive Gift Combo" });
    await card.waitFor();
    expect(await card.textContent()).toContain("Shown");
    await close();

    const shopper = await shopperPage("/", "desktop");
    await scrollThrough(shopper.page);
    const section = shopper.page.locator("#combos");
    await section.getByRole("heading", { name: "Festive Gift Combo" }).waitFor();
    expect(await section.textContent()).toContain("Ready to gift");
    await shopper.close();
  });

  it("is looked at on a phone and a wide screen, light and dark, the shop's pages too", async () => {
    // Each screen loaded once and shown at each width and in each theme (the window resized and the system
    // setting switched under it).
    const inEveryView = (page: Page, what: string, ready: () => Promise<unknown>) =>
      inEachView(page, EVERY_VIEW, async (viewport, scheme) => {
        await ready();
        expect(await sidewaysOverflow(page), `${what} ${viewport} ${scheme}`).toBeLessThanOrEqual(0);
        await shot(page, `${what}-${viewport === "phone" ? 375 : 1280}-${scheme}`);
      });
    const admin = await ownerPage("/admin/shop", "phone");
    await inEveryView(admin.page, "admin", () =>
      admin.page.getByRole("form", { name: "Shop details" }).waitFor(),
    );
    await admin.page.goto("/admin/combos?edit=skincare-combo");
    await inEveryView(admin.page, "combos", () =>
      admin.page.getByRole("form", { name: "Edit Glow Skincare Combo" }).waitFor(),
    );
    await admin.close();

    // The contact page's lower parts load as they come near, at each width again.
    const contact = await shopperPage("/contact", "phone");
    await inEveryView(contact.page, "contact", () => scrollThrough(contact.page));
    await contact.close();
  });
});
