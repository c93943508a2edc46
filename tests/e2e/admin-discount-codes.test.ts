import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInContext, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, screenshot } from "../fixtures.ts";
import { ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;

ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});

async function ownerPage(viewport: "phone" | "desktop", colorScheme: "light" | "dark") {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto("/admin/discount-codes");
  await page.getByRole("heading", { name: "Discount codes" }).waitFor();
  return { page, close: () => context.close() };
}

const card = (page: Page, code: string) =>
  page.getByRole("list", { name: "Discount codes" }).getByRole("listitem").filter({ hasText: code });

describe("the owner's discount codes", () => {
  it("creates a code limited to 2 uses, refused first for an end before its start, and switches it off", async () => {
    const { page, close } = await ownerPage("phone", "light");
    expect(await card(page, "GLOW20").getByText("20% off", { exact: true }).count()).toBe(1);
    await page.getByRole("link", { name: "New code" }).click();
    const form = page.getByRole("form", { name: "New code" });
    await form.getByLabel("Code", { exact: true }).fill("twice");
    await form.getByLabel("Description").fill("₹150 off, first two orders");
    await form.getByLabel("Amount off (₹)", { exact: true }).check();
    await form.getByLabel("Amount off (₹, whole rupees)").fill("150");
    await form.getByLabel("Total uses").fill("2");
    expect(await form.getByLabel("Uses per customer").inputValue()).toBe("1");
    await form.getByLabel("Starts (India time)").fill("2026-12-10T10:00");
    await form.getByLabel("Ends (India time)").fill("2026-12-01T10:00");
    await form.getByRole("button", { name: "Create code" }).click();
    await form.getByText("The end must be after the start.").waitFor();
    await screenshot(page, "admin-discount-codes-error-375-light");

    await form.getByLabel("Ends (India time)").fill("2026-12-31T23:59");
    await form.getByRole("button", { name: "Create code" }).click();
    await card(page, "TWICE").waitFor();
    const twice = card(page, "TWICE");
    expect(await twice.getByText("₹150 off", { exact: true }).count()).toBe(1);
    expect(await twice.getByText("0 of 2").count()).toBe(1);
    expect(await twice.getByText("Once", { exact: true }).count()).toBe(1);
    expect(await twice.getByText("10 Dec 2026, 10:00 am").count()).toBe(1);

    await twice.getByRole("link", { name: "Edit TWICE" }).click();
    const editor = page.getByRole("form", { name: "Edit TWICE" });
    expect(await editor.getByLabel("Starts (India time)").inputValue()).toBe("2026-12-10T10:00");
    await editor.getByLabel("On (shoppers can use it)").uncheck();
    await editor.getByRole("button", { name: "Save changes" }).click();
    await twice.getByText("Off", { exact: true }).waitFor();
    await close();
  });

  it("is looked at on a phone and a wide screen, light and dark", async () => {
    // One page, the code's editor opened once, shown at each width and in each theme.
    const { page, close } = await ownerPage("phone", "light");
    await page.getByRole("link", { name: "Edit GLOW20" }).click();
    await inEachView(page, EVERY_VIEW, async (viewport, scheme) => {
      await page.getByRole("form", { name: "Edit GLOW20" }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${viewport} ${scheme} scrolls sideways`).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-discount-codes-${viewport}-${scheme}`);
    });
    await close();
  });
});
