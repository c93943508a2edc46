import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fillBigShop } from "../../scripts/big-shop.ts";
import { createDb } from "../../server/db/client.ts";
import { signInContext, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, screenshot, sidewaysOverflow } from "../fixtures.ts";
import { ownShopForFile } from "../shop-test.ts";

/** Every admin page on a phone (375 px) and a desktop (1280 px): its own frame, nothing wider than the screen. */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
/** Two cash-on-delivery orders ready to ship, one per viewport. */
let packed: string[];

const ADMIN_PAGES = [
  ["Dashboard", "/admin"],
  ["Orders", "/admin/orders"],
  ["Cash on delivery", "/admin/cod"],
  ["Stock", "/admin/stock"],
  ["Questions", "/admin/questions"],
  ["Reviews", "/admin/reviews"],
  ["Messages", "/admin/messages"],
  ["Products", "/admin/products"],
  ["Discount codes", "/admin/discount-codes"],
  ["Combos", "/admin/combos"],
  ["Shop details", "/admin/shop"],
  ["Delivery", "/admin/delivery"],
  ["Tax", "/admin/tax"],
  ["Staff", "/admin/staff"],
  ["Audit log", "/admin/audit"],
] as const;

ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});
beforeAll(async () => {
  const { db, pool } = createDb(shop.databaseUrl ?? "", { max: 2 });
  try {
    await fillBigShop(db, { orders: 30 });
    const rows = await db.execute<{ number: string }>(sql`
      update orders set status = 'packed', courier = null, tracking_number = null, shipped_at = null,
        delivered_at = null, cancelled_at = null
      where id in (
        -- Orders that moved no money yet: one the courier already collected cash for could not be
        -- delivered again without the ledger counting the cash twice.
        select id from orders o where payment_method = 'cod'
          and not exists (select 1 from money_ledger l where l.order_id = o.id)
        order by created_at desc limit 2
      )
      returning number`);
    packed = rows.rows.map((row) => row.number);
  } finally {
    await pool.end();
  }
}, 120_000);

describe("the admin on a phone and a desktop", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`shows every admin page in its own frame without sideways scrolling (${viewport})`, async () => {
      const context = await newContext(browser, shop, { viewport, colorScheme: "light" });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      const width = page.viewportSize()?.width ?? 0;
      const nav = page.getByRole("navigation", { name: "Admin sections" });
      for (const [index, [label, path]] of ADMIN_PAGES.entries()) {
        const link = nav.getByRole("link", { name: label, exact: true });
        if (index === 0) {
          await page.goto(path);
        } else {
          // The next section is opened from its link in the list, as the owner moves through the admin: a page
          // of the app, not another load of it (on a phone the list is open from the check of the last page).
          await link.click();
          await page.waitForURL((url) => url.pathname === path);
          // The list marks it as the current page once the admin has drawn it (the list itself may be folded).
          await expect.poll(() => nav.locator('a[aria-current="page"]').textContent()).toBe(label);
        }
        await page.locator("main h1").first().waitFor();
        if (viewport === "phone") {
          // The sections fold behind one button naming the current page, so the page starts near the top; a
          // section chosen from the list closes it.
          await nav.locator('button[aria-expanded="false"]').waitFor();
          const sections = nav.getByRole("button", { name: `Sections: ${label}` });
          const box = await sections.boundingBox();
          expect(box && box.y < 160, `the sections button sits right below the bar on ${path}`).toBe(true);
          expect(await link.isVisible()).toBe(false);
          await sections.click();
          if (path === "/admin/orders") {
            await link.waitFor();
            await screenshot(page, "admin-phone-sections-open");
          }
        }
        await link.waitFor();
        // The shop's header and footer stay out of the admin.
        expect(await page.locator("header nav, footer").count(), path).toBe(0);
        await page.getByRole("link", { name: "Back to the shop", exact: true }).waitFor();
        // Every section's link is on the screen (drawn, so it has a size), none cut off: read in one go.
        const boxes = new Map(
          await nav.locator("a").evaluateAll((links) =>
            links.map((each) => {
              const { x, width, height } = each.getBoundingClientRect();
              return [each.textContent?.trim() ?? "", { x, width, height }] as const;
            }),
          ),
        );
        for (const [section] of ADMIN_PAGES) {
          const box = boxes.get(section);
          expect(
            box && box.height > 0 && box.x >= 0 && box.x + box.width <= width,
            `${section} on ${path}`,
          ).toBe(true);
        }
        expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0);
      }
      await context.close();
    }, 120_000);

    it(`ships an order from the dialog, and the theme switch works (${viewport})`, async () => {
      const number = packed[viewport === "phone" ? 0 : 1] ?? "";
      const context = await newContext(browser, shop, { viewport, colorScheme: "light" });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      for (const theme of ["light", "dark"] as const) {
        if (theme === "dark") {
          await page.getByRole("button", { name: "Switch to dark theme" }).click();
          await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
        }
        await page.goto("/admin/orders");
        await page.getByText(/\d+ orders/).waitFor();
        await screenshot(page, `admin-phone-orders-${viewport}-${theme}`);
        await page.goto("/admin/stock");
        await page.getByRole("list", { name: "Stock" }).waitFor();
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `admin-phone-stock-${viewport}-${theme}`);
        await page.goto(`/admin/orders/${number}`);
        await page.getByRole("button", { name: "Ship", exact: true }).click();
        const dialog = page.getByRole("dialog", { name: `Ship order ${number}` });
        await dialog.waitFor();
        await screenshot(page, `admin-phone-ship-${viewport}-${theme}`);
        if (theme === "light") await dialog.getByRole("button", { name: "Not now" }).click();
      }
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

      const dialog = page.getByRole("dialog", { name: `Ship order ${number}` });
      await dialog.getByLabel("Courier").selectOption("Blue Dart");
      // The server's rule, not only the browser's: a number with a space is refused, naming the field.
      await dialog.getByLabel("Tracking number").evaluate((input) => input.removeAttribute("pattern"));
      await dialog.getByLabel("Tracking number").fill("BD 1234");
      await dialog.getByRole("button", { name: "Ship order" }).click();
      await dialog.getByRole("alert").filter({ hasText: "trackingNumber" }).waitFor();
      await dialog.getByLabel("Tracking number").fill("BD-77812");
      await dialog.getByRole("button", { name: "Ship order" }).click();
      await page.getByRole("status").filter({ hasText: "Order shipped" }).waitFor();
      await page.getByText("Blue Dart, tracking BD-77812", { exact: true }).waitFor();
      expect(await page.getByRole("link", { name: "Track parcel" }).getAttribute("href")).toBe(
        "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo=BD-77812",
      );
      expect(await page.getByRole("button", { name: "Ship", exact: true }).count()).toBe(0);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-phone-shipped-${viewport}-dark`);

      // The courier form starts from what was just saved, and still holds it right after Mark delivered,
      // without a reload (issue 30).
      const courierForm = page.getByRole("region", { name: "Correct courier details" });
      await expect(courierForm.getByLabel("Courier").inputValue()).resolves.toBe("Blue Dart");
      await expect(courierForm.getByLabel("Tracking number").inputValue()).resolves.toBe("BD-77812");
      // The status note is read by the shopper: the form says so.
      const note = page.getByLabel("Note for the shopper's order history (optional)");
      expect(await note.getAttribute("aria-describedby")).toBe("status-note-hint");
      await page.getByText("The shopper sees this note, word for word, on their order page.").waitFor();
      await page.getByRole("button", { name: "Mark delivered" }).click();
      await page.getByText("Delivered", { exact: true }).first().waitFor();
      await page.getByRole("button", { name: "Mark delivered" }).waitFor({ state: "detached" });
      await expect(courierForm.getByLabel("Courier").inputValue()).resolves.toBe("Blue Dart");
      await expect(courierForm.getByLabel("Tracking number").inputValue()).resolves.toBe("BD-77812");
      await screenshot(page, `admin-phone-delivered-${viewport}-dark`);
      await context.close();
    }, 120_000);
  }
});
