import { and, desc, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepLeftCarts } from "../../server/cart-reminders/left-carts.ts";
import { marketingConsents, orders } from "../../server/db/schema.ts";
import { createJobSignal } from "../../server/jobs/job-queue.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { showColorScheme } from "../color-scheme.ts";
import { startFakeWhatsApp, whatsAppReminderEnv } from "../fake-whatsapp.ts";
import {
  type ColorScheme,
  newContext,
  type Shop,
  type ShopDatabase,
  screenshot,
  shoot,
  sidewaysOverflow,
  type Viewport,
} from "../fixtures.ts";
import { linkIn, mailsTo, waitForMail } from "../mail.ts";
import { putInCart, setStock } from "../orders.ts";
import { fetchPage, h1Of } from "../page-html.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";
import { openSignedInPage } from "../signed-in-page.ts";
import { EVERY_VIEW, inEachView, showView } from "../views.ts";

/**
 * Carts left behind (issue 44, docs/decisions/089), as the shopper and the owner meet them: the opt-in on the
 * account page, the reminder mail, the cart brought back by its link in another browser (another device), the
 * one-tap unsubscribe, the owner's settings and the dashboard's figures of the cart won back.
 */
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
let owner: TestAccount;
let asha: TestAccount;

const HOUR = 3_600_000;
/** The shop's sweep, run from here with the clock moved on (the shop's own job worker sends the mail). */
const sweepAt = (hours: number) =>
  sweepLeftCarts({ db: database.db, jobs: createJobSignal() }, new Date(Date.now() + hours * HOUR));

/** Until the shop's job worker has run every job due now (it polls for jobs queued from here). */
async function untilJobsDone() {
  for (const deadline = Date.now() + 20_000; ; ) {
    const { rows } = await database.pool.query<{ due: number }>(
      "select count(*)::int as due from jobs where status in ('queued', 'running') and run_at <= now()",
    );
    if (rows[0]?.due === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]?.due} jobs still due after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let fake: Awaited<ReturnType<typeof startFakeWhatsApp>>;
// The shop speaks to a local WhatsApp with the cart reminder template (docs/decisions/096), started first.
beforeAll(async () => {
  fake = await startFakeWhatsApp();
});
afterAll(() => fake?.close());

ownShopForFile(
  (started) => {
    ({ shop, browser, database, owner } = started);
  },
  () => whatsAppReminderEnv(fake.base),
);

beforeAll(async () => {
  asha = await signUpViaHttp(shop.url, "asha.reminded@example.in");
  await setStock(database.db, "coconut-oil", 50);
  await setStock(database.db, "bath-powder", 50);
});

/** A page opened fresh in each width and scheme (the landing pages take the theme as they load). */
async function shootEach(name: string, open: (page: Page) => Promise<void>) {
  for (const viewport of ["phone", "desktop"] as Viewport[]) {
    for (const colorScheme of ["light", "dark"] as ColorScheme[]) {
      const context = await newContext(browser, shop, { viewport, colorScheme });
      const page = await context.newPage();
      await open(page);
      expect(await sidewaysOverflow(page), `${name} at ${viewport}`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-${viewport}-${colorScheme}`);
      await context.close();
    }
  }
}

describe("a cart left behind", () => {
  let restore = "";
  let unsubscribe = "";

  it("the owner turns on a 10% code for reminders, and is told what will happen", async () => {
    for (const viewport of ["phone", "desktop"] as Viewport[]) {
      const { page, close } = await openSignedInPage(browser, shop, owner, "/admin/settings", { viewport });
      const form = page.getByRole("form", { name: "Cart reminders" });
      await form.getByLabel("Code in the reminder (% off)").fill("10");
      await form.getByLabel("Code valid for (days)").fill("2");
      await form.getByRole("button", { name: "Save cart reminders" }).click();
      await expect
        .poll(() => form.getByRole("status").textContent())
        .toBe(
          "Saved. Shoppers who opted in get a reminder 1 hour after leaving their cart, with a 10% code valid 2 days.",
        );
      // A refusal names the field and saves nothing.
      await form.getByLabel("Remind after (minutes)").fill("5");
      await form.getByRole("button", { name: "Save cart reminders" }).click();
      await expect.poll(() => form.getByText("Nothing was saved", { exact: false }).count()).toBe(1);
      expect(await form.getByText("must be at least 15 minutes").count()).toBe(1);
      await form.getByLabel("Remind after (minutes)").fill("60");
      await form.getByRole("button", { name: "Save cart reminders" }).click();
      await expect.poll(() => form.getByRole("status").textContent()).toContain("Saved.");
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await form.scrollIntoViewIfNeeded();
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(
          (dark) => document.documentElement.classList.toggle("dark", dark),
          scheme === "dark",
        );
        await shoot(form, {
          path: `test-results/screenshots/cart-reminder-settings-${viewport}-${scheme}.png`,
        });
      }
      await close();
    }
  });

  it("a shopper who opted in on the account page gets one reminder, whose link brings the cart back in another browser", async () => {
    const { page, close } = await openSignedInPage(browser, shop, asha, "/settings", { viewport: "phone" });
    const optIn = page.getByRole("checkbox", { name: /Remind me about a cart I leave behind/ });
    expect(await optIn.isChecked()).toBe(false);
    await optIn.check();
    await expect
      .poll(() => page.getByText("Saved: we will remind you about a cart you leave.").count())
      .toBe(1);
    await close();
    const [yes] = await database.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.email, asha.email))
      .orderBy(desc(marketingConsents.createdAt));
    expect(yes).toMatchObject({ consented: true, source: "account", userId: asha.userId });

    await putInCart(database.db, asha.userId, [
      { itemId: "coconut-oil", quantity: 2 },
      { itemId: "bath-powder", quantity: 1 },
    ]);
    expect(await sweepAt(0.5)).toBe(0);
    expect(await sweepAt(2)).toBe(1);
    const mail = await waitForMail(shop.dataDir, { to: asha.email, subject: /left something in your cart/ });
    expect(mail.text).toMatch(/Coconut Oil: × 2/);
    expect(mail.text).toMatch(/code BACK[0-9A-F]{8} for 10% off/);
    restore = linkIn(mail, "/cart-back/");
    unsubscribe = linkIn(mail, "/unsubscribe");
    expect(mail.listUnsubscribe).toBe(`<${unsubscribe}>`);

    // Another device: a browser that has never seen the shop, not signed in.
    const phone = await newContext(browser, shop, { viewport: "phone" });
    const landing = await phone.newPage();
    await landing.goto(restore);
    await expect
      .poll(() => landing.getByRole("status").textContent())
      .toBe("Everything you left is in your cart again, on this device.");
    await landing.getByRole("link", { name: "Go to my cart" }).click();
    await landing.waitForURL("**/cart");
    await expect
      .poll(() => landing.getByLabel("Quantity of Coconut Oil", { exact: true }).inputValue())
      .toBe("2");
    expect(await landing.getByLabel("Quantity of Bath Powder", { exact: true }).inputValue()).toBe("1");
    // The code came with it, applied.
    await expect.poll(() => landing.getByText(/BACK[0-9A-F]{8}/).count()).toBeGreaterThan(0);
    await phone.close();

    // Opened again, signed in as Asha: the saved cart keeps its lines, nothing doubled.
    const signedIn = await newContext(browser, shop, { viewport: "desktop" });
    await signInContext(signedIn, shop.url, asha);
    const again = await signedIn.newPage();
    await again.goto(restore);
    await expect
      .poll(() => again.getByRole("status").textContent())
      .toBe("Everything you left is in your cart again.");
    await again.getByRole("link", { name: "Go to my cart" }).click();
    await expect
      .poll(() => again.getByLabel("Quantity of Coconut Oil", { exact: true }).inputValue())
      .toBe("2");
    await signedIn.close();

    await shootEach("cart-reminder-restore", async (page) => {
      await page.goto(restore);
      await page.getByRole("heading", { name: "Your cart is back" }).waitFor();
    });
  });

  it("an order placed from the reminded cart is counted as won back on the owner's dashboard, with its revenue", async () => {
    const addressId = await saveShopAddress(shop.url, asha);
    const { order } = await callShopApi(shop.url, asha, "POST", "/orders", {
      addressId,
      paymentMethod: "cod",
    });
    const [placed] = await database.db
      .select({ totalPaise: orders.totalPaise })
      .from(orders)
      .where(eq(orders.number, order.number));
    const rupees = `₹${new Intl.NumberFormat("en-IN").format((placed?.totalPaise ?? 0) / 100)}`;

    // One load of the admin home, shown at each width: the report is read, not changed.
    const { page, close } = await openSignedInPage(browser, shop, owner, "/admin", { viewport: "phone" });
    for (const viewport of ["phone", "desktop"] as Viewport[]) {
      await showView(page, viewport, "light");
      const panel = page.getByRole("region", { name: "Carts left behind" });
      await panel.waitFor();
      const figure = (label: string) =>
        panel
          .locator("dl")
          .first()
          .locator("dt")
          .filter({ hasText: new RegExp(`^${label}$`) })
          .locator("xpath=following-sibling::dd[1]");
      expect(await figure("Carts left behind").textContent()).toBe("1");
      expect(await figure("Reminded").textContent()).toBe("1");
      expect(await figure("Won back").textContent()).toBe("1");
      expect(await figure("Revenue won back").textContent()).toBe(rupees);
      const csv = await page.evaluate(async () =>
        (await fetch("/api/admin/cart-reminders/report.csv")).text(),
      );
      expect(csv.split("\r\n")[1]).toMatch(
        new RegExp(`^\\d{4}-\\d{2}-\\d{2},1,1,1,0,1,${((placed?.totalPaise ?? 0) / 100).toFixed(2)}$`),
      );
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      // On a phone each day is a card of label and value; from a desktop's width, the table. Nothing in the
      // panel scrolls sideways inside its box.
      const byDay = "Carts left behind by the day they were left: reminded, won back and revenue";
      const cards = panel.getByRole("list", { name: byDay });
      const table = panel.getByRole("table", { name: byDay });
      expect(await cards.isVisible()).toBe(viewport === "phone");
      expect(await table.isVisible()).toBe(viewport === "desktop");
      if (viewport === "phone") {
        const day = cards.getByRole("listitem").first();
        const fact = (label: string) =>
          day
            .locator("dt")
            .filter({ hasText: new RegExp(`^${label}$`) })
            .locator("xpath=following-sibling::dd[1]");
        expect(await fact("Won back").textContent()).toBe("1");
        expect(await fact("Revenue").textContent()).toBe(rupees);
      }
      expect(
        await panel.evaluate((root) =>
          [root, ...root.querySelectorAll("*")]
            // A screen reader's text (sr-only) is clipped to 1 px by design.
            .filter((element) => element.clientWidth > 1 && element.scrollWidth > element.clientWidth + 1)
            .filter((element) => getComputedStyle(element).overflowX !== "visible")
            .map((element) => element.tagName),
        ),
      ).toEqual([]);
      await panel.scrollIntoViewIfNeeded();
      for (const scheme of ["light", "dark"] as const) {
        await showColorScheme(page, scheme);
        await shoot(panel, {
          path: `test-results/screenshots/cart-reminder-report-${viewport}-${scheme}.png`,
        });
      }
    }
    await close();
  });

  it("the unsubscribe link works in one tap, without signing in, and no further reminder goes", async () => {
    const unsubscribed = await fetchPage(shop, unsubscribe);
    expect(h1Of(unsubscribed)).toEqual(["You are unsubscribed"]);
    expect(
      unsubscribed.document.querySelectorAll('[role="status"]').map((status) => status.textContent),
    ).toEqual([expect.stringContaining(asha.email)]);
    const [no] = await database.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.email, asha.email))
      .orderBy(desc(marketingConsents.createdAt));
    expect(no).toMatchObject({ consented: false, source: "unsubscribe_link" });

    // A new cart, left past the delay: nothing is sent to an address that unsubscribed.
    const before = (await mailsTo(shop.dataDir, asha.email)).length;
    await putInCart(database.db, asha.userId, [{ itemId: "bath-powder", quantity: 4 }]);
    await sweepAt(3);
    await untilJobsDone();
    expect((await mailsTo(shop.dataDir, asha.email)).length).toBe(before);

    await shootEach("cart-reminder-unsubscribed", async (shot) => {
      await shot.goto(unsubscribe);
      await shot.getByRole("heading", { name: "You are unsubscribed" }).waitFor();
    });
  });

  it("a guest's checkout with a ticked opt-in is reminded, and its link fills a fresh browser's cart", async () => {
    const guest = "guest.reminded@example.in";
    const context = await newContext(browser, shop, { viewport: "desktop" });
    const page = await context.newPage();
    await page.goto("/");
    await page.evaluate(() =>
      localStorage.setItem(
        "cart",
        JSON.stringify({ items: [{ id: "coconut-oil", kind: "product", name: "Coconut Oil", quantity: 3 }] }),
      ),
    );
    await page.goto("/checkout?as=guest");
    await page.locator("#guest-email").fill(guest);
    await page.getByRole("checkbox", { name: /Remind me about a cart I leave behind/ }).check();
    await expect
      .poll(
        async () =>
          (await database.db.select().from(marketingConsents).where(eq(marketingConsents.email, guest)))
            .length,
      )
      .toBe(1);
    await context.close();

    await sweepAt(2);
    const mail = await waitForMail(shop.dataDir, { to: guest, subject: /left something in your cart/ });
    const fresh = await newContext(browser, shop, { viewport: "phone" });
    const landing = await fresh.newPage();
    await landing.goto(linkIn(mail, "/cart-back/"));
    await landing.getByRole("link", { name: "Go to my cart" }).click();
    await expect
      .poll(() => landing.getByLabel("Quantity of Coconut Oil", { exact: true }).inputValue())
      .toBe("3");
    await fresh.close();
  });

  it("a shopper ticks 'Remind me on WhatsApp' at checkout: the yes is kept with when, where and the address's mobile, and the cart left there gets one WhatsApp reminder", async () => {
    const ravi = await signUpViaHttp(shop.url, "ravi.whatsapp@example.in");
    await saveShopAddress(shop.url, ravi);
    await putInCart(database.db, ravi.userId, [{ itemId: "coconut-oil", quantity: 1 }]);
    for (const viewport of ["phone", "desktop"] as Viewport[]) {
      const { page, close } = await openSignedInPage(browser, shop, ravi, "/checkout", { viewport });
      const box = page.getByRole("checkbox", { name: /Remind me on WhatsApp too/ });
      if (viewport === "phone") {
        // Unticked until the shopper ticks it, and apart from the e-mail reminders' box.
        expect(await box.isChecked()).toBe(false);
        await box.check();
        await expect.poll(() => page.getByText("Saved: we will remind you on WhatsApp.").count()).toBe(1);
      } else {
        expect(await box.isChecked()).toBe(true);
      }
      expect(
        await page.getByRole("checkbox", { name: /Remind me about a cart I leave behind/ }).isChecked(),
      ).toBe(false);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const section = page.getByRole("region", { name: "2. Payment" });
      await section.scrollIntoViewIfNeeded();
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(
          (dark) => document.documentElement.classList.toggle("dark", dark),
          scheme === "dark",
        );
        await shoot(section, {
          path: `test-results/screenshots/checkout-whatsapp-reminder-${viewport}-${scheme}.png`,
        });
      }
      await close();
    }
    const [yes] = await database.db
      .select()
      .from(marketingConsents)
      .where(and(eq(marketingConsents.channel, "whatsapp"), eq(marketingConsents.userId, ravi.userId)))
      .orderBy(desc(marketingConsents.createdAt));
    expect(yes).toMatchObject({ consented: true, source: "checkout", mobile: "9876543210" });
    expect(yes?.createdAt).toBeInstanceOf(Date);

    await sweepAt(2);
    await expect
      .poll(() => fake.messages.filter((message) => message.to === "919876543210").length, {
        timeout: 20_000,
      })
      .toBe(1);
    const [message] = fake.messages.filter((message) => message.to === "919876543210");
    expect(message).toMatchObject({
      template: "cart_reminder",
      body: [expect.any(String), expect.stringContaining("× 1"), expect.any(String)],
    });
  });

  it("a shopper turns WhatsApp reminders off on the settings page, gets none for the cart left, and turns them on again", async () => {
    const kiran = await signUpViaHttp(shop.url, "kiran.whatsapp@example.in");
    await callShopApi(shop.url, kiran, "PUT", "/marketing-consent/whatsapp", {
      consented: true,
      where: "checkout",
      mobile: "91234 56780",
    });
    await putInCart(database.db, kiran.userId, [{ itemId: "bath-powder", quantity: 1 }]);
    const { page, close } = await openSignedInPage(browser, shop, kiran, "/settings", { viewport: "phone" });
    const whatsapp = page.getByRole("switch", { name: "Remind me on WhatsApp, and send me offers there" });
    expect(await whatsapp.isChecked()).toBe(true);
    const reminders = page.getByRole("region", { name: "Cart reminders and offers" });
    expect(
      await reminders.getByText("On: one message per cart you leave behind, to +91 91234 56780.").count(),
    ).toBe(1);
    expect(await reminders.getByText(/^You said yes at checkout on /).count()).toBe(1);
    // Off from the keyboard: the switch is reached and turned with the space bar.
    await whatsapp.focus();
    await page.keyboard.press("Space");
    await expect
      .poll(() => reminders.getByRole("status").last().textContent())
      .toBe("Saved: no reminders or offers on WhatsApp.");
    expect(await whatsapp.isChecked()).toBe(false);
    expect(await reminders.getByText(/^You said no on this page on /).count()).toBe(1);
    await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
      expect(await sidewaysOverflow(page), `settings at ${viewport}`).toBeLessThanOrEqual(0);
      await reminders.scrollIntoViewIfNeeded();
      await shoot(reminders, {
        path: `test-results/screenshots/settings-whatsapp-reminders-${viewport}-${colorScheme}.png`,
      });
    });

    // The cart left behind gets no WhatsApp reminder while the answer is no.
    await sweepAt(2);
    await untilJobsDone();
    expect(fake.messages.filter((message) => message.to === "919123456780")).toHaveLength(0);

    await page.reload();
    const again = page.getByRole("switch", { name: "Remind me on WhatsApp, and send me offers there" });
    expect(await again.isChecked()).toBe(false);
    await again.check();
    await expect
      .poll(() => reminders.getByRole("status").last().textContent())
      .toBe("Saved: we will remind you on WhatsApp.");
    await close();
    const answers = await database.db
      .select()
      .from(marketingConsents)
      .where(and(eq(marketingConsents.channel, "whatsapp"), eq(marketingConsents.userId, kiran.userId)))
      .orderBy(desc(marketingConsents.createdAt));
    expect(answers.map(({ consented, source, mobile }) => ({ consented, source, mobile }))).toEqual([
      { consented: true, source: "account", mobile: "9123456780" },
      { consented: false, source: "account", mobile: "9123456780" },
      { consented: true, source: "checkout", mobile: "9123456780" },
    ]);
  });
});
