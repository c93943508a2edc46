import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { screenshot, shoot } from "../fixtures.ts";
import { it } from "../shop-test.ts";
import { appStarted, slowDown, slowPhonePage } from "../slow-phone.ts";

/**
 * Issue 27, "no tap is lost": on a slow phone the server's page shows its buttons seconds before the app
 * has started. A tap then is kept by the app loader's inline script, shown as taken at once, and carried
 * out when the app starts. Each test taps as soon as the button is visible, and first checks that the tap
 * did come before the app (else it would prove nothing).
 */

// Generous: on the slowed phone the app starts several seconds after the page, more on a busy machine.
const SLOW = { timeout: 40_000 };

/** Records, for each tap (pointer or keyboard click), whether the app had started, and whether the page
 * showed the tap as taken (data-tap-taken) straight after. */
async function recordTaps(page: Page) {
  await page.addInitScript(() => {
    const taps: { beforeApp: boolean; shownTaken: boolean }[] = [];
    Object.assign(window, { __taps: taps });
    // Window, capture phase: before the loader's own listener on the document.
    window.addEventListener(
      "click",
      (event) => {
        if (!event.isTrusted) return; // the app's replays are not taps
        const control = (event.target as Element).closest("button");
        const tap = { beforeApp: !document.documentElement.hasAttribute("data-hydrated"), shownTaken: false };
        taps.push(tap);
        setTimeout(() => {
          tap.shownTaken = control?.hasAttribute("data-tap-taken") ?? false;
        }, 0);
      },
      true,
    );
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { __taps: { beforeApp: boolean; shownTaken: boolean }[] }).__taps,
    );
}

/**
 * Holds back the app's entry until release(): the first kept tap starts the app at once, and on a fast
 * moment of this shared machine it could start before a test's second tap.
 */
async function holdApp(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/assets/index-*.js", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

describe("a tap before the app has started, on a slow phone (CPU 4x slower, 1.6 Mbit/s, 150 ms)", () => {
  it("adds to the cart from a product page, with the quantity chosen by a tap on +", async ({
    shop,
    browser,
  }) => {
    const { context, page } = await slowPhonePage(browser, shop);
    const taps = await recordTaps(page);
    const releaseApp = await holdApp(page);
    await page.goto("/product/badam-mix", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Increase quantity" }).click(SLOW);
    const add = page.getByRole("button", { name: "Add to cart" });
    await add.click(SLOW);
    expect(await taps()).toEqual([
      { beforeApp: true, shownTaken: true },
      { beforeApp: true, shownTaken: true },
    ]);
    // Taken at once: the button says so before the app has started.
    expect(await add.getAttribute("aria-busy")).toBe("true");
    expect(await add.evaluate((button) => getComputedStyle(button, "::after").content)).toBe('"Adding…"');
    await screenshot(page, "early-tap-adding-phone-light");
    releaseApp();

    await page.getByText("Badam Mix was added to cart!").waitFor(SLOW);
    expect(await appStarted(page)).toBe(true);
    expect(await page.getByRole("button", { name: "Add to cart" }).getAttribute("data-tap-taken")).toBeNull();
    await page.goto("/cart");
    expect(await page.getByLabel("Quantity of Badam Mix", { exact: true }).inputValue(SLOW)).toBe("2");
    await context.close();
  });

  it("checks delivery to a PIN typed and sent before the app", async ({ shop, browser }) => {
    const { context, page } = await slowPhonePage(browser, shop);
    const taps = await recordTaps(page);
    const releaseApp = await holdApp(page);
    await page.goto("/product/badam-mix", { waitUntil: "commit" });
    const check = page.getByRole("region", { name: "Check delivery" });
    await check.getByLabel("PIN code").fill("600020", SLOW);
    await check.getByRole("button", { name: "Check" }).click(SLOW);
    expect(await taps()).toEqual([{ beforeApp: true, shownTaken: true }]);
    releaseApp();
    await check.getByText(/^Delivers to Chennai, Tamil Nadu by /).waitFor(SLOW);
    expect(await check.getByLabel("PIN code").inputValue()).toBe("600020");
    await context.close();
  });

  it("adds a combo from its page", async ({ shop, browser }) => {
    const { context, page } = await slowPhonePage(browser, shop, { colorScheme: "dark" });
    const taps = await recordTaps(page);
    await page.goto("/combo/skincare-combo", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Add to cart" }).click(SLOW);
    expect(await taps()).toEqual([{ beforeApp: true, shownTaken: true }]);
    await screenshot(page, "early-tap-adding-phone-dark");
    await page.getByText("Glow Skincare Combo was added to cart!").waitFor(SLOW);
    await page.goto("/cart");
    expect(await page.getByLabel("Quantity of Glow Skincare Combo", { exact: true }).inputValue(SLOW)).toBe(
      "1",
    );
    await context.close();
  });

  it("switches the theme under the finger, and the app keeps it", async ({ shop, browser }) => {
    const { context, page } = await slowPhonePage(browser, shop, { viewport: "desktop" });
    const taps = await recordTaps(page);
    const releaseApp = await holdApp(page);
    await page.goto("/", { waitUntil: "commit" });
    await page.getByRole("banner").getByRole("button", { name: "Switch to dark theme" }).click(SLOW);
    // A category menu tapped at once too: it opens when the app starts.
    const menu = page.getByRole("banner").getByRole("button", { name: "Bestsellers" });
    await menu.click(SLOW);
    expect((await taps()).map((tap) => tap.beforeApp)).toEqual([true, true]);
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await shoot(page, { path: "test-results/screenshots/early-tap-menu-desktop-dark.png" });
    releaseApp();

    await page.locator("html[data-hydrated]").waitFor({ state: "attached", ...SLOW });
    await page.getByRole("banner").getByRole("button", { name: "Switch to light theme" }).waitFor(SLOW);
    expect(await isDark(page)).toBe(true);
    // The kept tap is carried out once the replay code has come in, over the slow network: soon after, not at once.
    await page.getByRole("banner").getByRole("button", { name: "Bestsellers", expanded: true }).waitFor(SLOW);
    await context.close();
  });

  it("minimises the banner and moves the hero on", async ({ shop, browser }) => {
    const { context, page } = await slowPhonePage(browser, shop);
    const taps = await recordTaps(page);
    const releaseApp = await holdApp(page);
    await page.goto("/", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Next slide" }).click(SLOW);
    await page.getByRole("button", { name: "Minimise offer banner" }).click(SLOW);
    expect(await taps()).toEqual([
      { beforeApp: true, shownTaken: true },
      { beforeApp: true, shownTaken: true },
    ]);
    await shoot(page, { path: "test-results/screenshots/early-tap-hero-banner-phone-light.png" });
    releaseApp();
    await page.getByRole("button", { name: "20% OFF - Click to expand" }).waitFor(SLOW);
    expect(await page.getByRole("button", { name: /^Slide 2:/ }).getAttribute("aria-current")).toBe("true");
    await context.close();
  });

  it("opens the menu and the search", async ({ shop, browser }) => {
    for (const [button, opened] of [
      ["Open menu", "dialog"],
      ["Search products", "dialog"],
    ] as const) {
      const { context, page } = await slowPhonePage(browser, shop);
      const taps = await recordTaps(page);
      // Held until the tap is recorded: on a fast moment the app could otherwise start before it.
      const releaseApp = await holdApp(page);
      await page.goto("/", { waitUntil: "commit" });
      await page.getByRole("banner").getByRole("button", { name: button }).click(SLOW);
      expect(await taps()).toEqual([{ beforeApp: true, shownTaken: true }]);
      releaseApp();
      await page.getByRole(opened).waitFor(SLOW);
      await context.close();
    }
  });

  it("stops showing a tap as taken when the app's code cannot be fetched", async ({ shop, browser }) => {
    const { context, page } = await slowPhonePage(browser, shop);
    await page.route("**/assets/index-*.js", (route) => route.abort());
    await page.goto("/product/badam-mix", { waitUntil: "commit" });
    const add = page.getByRole("button", { name: "Add to cart" });
    await add.click(SLOW);
    await page.waitForFunction(
      () => !document.querySelector("[data-tap-taken]") && !document.querySelector("[aria-busy=true]"),
      undefined,
      SLOW,
    );
    expect(await add.getAttribute("aria-busy")).toBe("false");
    expect(await appStarted(page)).toBe(false);
    await context.close();
  });

  it("changes a quantity and applies a code in the cart as soon as they show", async ({ openContext }) => {
    // The cart is drawn by the app itself (the server leaves it empty): its buttons answer once shown.
    const context = await openContext({ viewport: "phone" });
    const setup = await context.newPage();
    await setup.goto("/product/face-glow-oil");
    await setup.getByRole("button", { name: "Add to cart" }).click();
    await setup.getByText("Face Glow Oil was added to cart!").waitFor();
    await setup.close();

    const page = await context.newPage();
    await slowDown(context, page);
    await page.goto("/cart", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Increase quantity of Face Glow Oil" }).click(SLOW);
    await page.getByLabel("Discount code").fill("GLOW20", SLOW);
    await page.getByRole("button", { name: "Apply" }).click(SLOW);
    await page.getByText("applied successfully!").waitFor(SLOW);
    expect(await page.getByLabel("Quantity of Face Glow Oil", { exact: true }).inputValue()).toBe("2");
    await context.close();
  });
});
