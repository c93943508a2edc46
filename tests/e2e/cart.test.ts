import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import type { PricedCart } from "../../common/cart.ts";
import { products } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type Shop, type ShopDatabase, screenshot } from "../fixtures.ts";
import { startShopInProcess } from "../in-process-shop.ts";
import { contextOn, it, uniqueEmail } from "../shop-test.ts";

let shop: Shop;
let database: ShopDatabase;
it.beforeAll(({ shop: workerShop, database: workerDatabase }) => {
  shop = workerShop;
  database = workerDatabase;
});

function newAccount(): Promise<TestAccount> {
  return signUpViaHttp(shop.url, uniqueEmail("shopper"));
}

/** What the saved cart holds, asked of the API with the account's cookie. */
async function savedCart(account: TestAccount): Promise<PricedCart> {
  const response = await fetch(`${shop.url}/api/cart`, { headers: { Cookie: account.cookie } });
  return response.json();
}

async function addThroughApi(account: TestAccount, id: string, times = 1) {
  for (let i = 0; i < times; i++) {
    const response = await fetch(`${shop.url}/api/cart/items`, {
      method: "POST",
      headers: { Cookie: account.cookie, "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ id, kind: "product" }),
    });
    expect(response.status).toBe(200);
  }
}

/** Adds from the product (or combo) page with its button, and waits for the toast. */
async function addFromPage(page: Page, path: string, name: string) {
  await page.goto(path);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByText(`${name} was added to cart!`).waitFor();
}

const badge = (page: Page, count: number) =>
  page.getByRole("link", {
    name: count === 0 ? "Cart, empty" : count === 1 ? "Cart, 1 item" : `Cart, ${count} items`,
  });

const quantityOf = (page: Page, name: string) =>
  page.getByLabel(`Quantity of ${name}`, { exact: true }).inputValue();

async function applyCode(page: Page, code: string) {
  await page.getByLabel("Discount code").fill(code);
  await page.getByRole("button", { name: "Apply" }).click();
}

describe("a guest's cart", () => {
  it("survives a reload, with the badge counting every item", async ({ browser }) => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await addFromPage(page, "/product/face-glow-oil", "Face Glow Oil");
    await addFromPage(page, "/combo/skincare-combo", "Glow Skincare Combo");
    await addFromPage(page, "/product/face-glow-oil", "Face Glow Oil");
    await badge(page, 3).waitFor();

    await page.reload();
    await badge(page, 3).waitFor();
    await page.goto("/cart");
    await page.getByRole("heading", { name: "Your cart" }).waitFor();
    expect(await quantityOf(page, "Face Glow Oil")).toBe("2");
    expect(await quantityOf(page, "Glow Skincare Combo")).toBe("1");
    expect(await page.getByTestId("cart-subtotal").textContent()).toBe("₹2,197");
    await screenshot(page, "cart-guest-desktop");

    await page.getByRole("button", { name: "Increase quantity of Glow Skincare Combo" }).click();
    await page.getByTestId("cart-subtotal").getByText("₹3,396").waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Your cart" }).waitFor();
    expect(await quantityOf(page, "Glow Skincare Combo")).toBe("2");

    await page.getByRole("button", { name: "Remove Face Glow Oil from cart" }).click();
    await page.getByTestId("cart-subtotal").getByText("₹2,398").waitFor();
    await page.getByLabel("Quantity of Glow Skincare Combo", { exact: true }).fill("0");
    await page.getByLabel("Quantity of Glow Skincare Combo", { exact: true }).press("Enter");
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("cart"))).toBeNull();
    await context.close();
  });

  it("is not fetched until there is one, and shows a cart started in another tab", async ({ browser }) => {
    const context = await contextOn(browser, shop);
    const watching = await context.newPage();
    const cartRequests: string[] = [];
    watching.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/cart")) cartRequests.push(request.url());
    });
    await watching.goto("/");
    await watching.getByRole("heading", { name: "Best sellers" }).waitFor();
    await watching.waitForLoadState("networkidle");
    await badge(watching, 0).waitFor();
    expect(cartRequests, "a visitor without a cart does not poll for one").toEqual([]);

    const adding = await context.newPage();
    await addFromPage(adding, "/product/coconut-oil", "Coconut Oil");
    await badge(watching, 1).waitFor();
    await context.close();
  });

  it("starts empty, without telling the shopper, when the saved cart cannot be read", async ({ browser }) => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("cart", "{not json"));
    await page.goto("/cart");
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(errors.some((text) => text.includes("The saved cart could not be read"))).toBe(true);

    await addFromPage(page, "/product/coconut-oil", "Coconut Oil");
    await badge(page, 1).waitFor();
    await context.close();
  });

  it("shows shipping by the shop's rule: ₹49 below ₹499 after discount, free from there", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await addFromPage(page, "/product/moringa-powder", "Moringa Powder");
    await page.goto("/cart");
    await page.getByTestId("cart-shipping").getByText("₹49").waitFor();
    expect(await page.getByTestId("cart-total").textContent()).toBe("₹299");
    await page.getByText("Add ₹249 more for free shipping.").waitFor();
    await page.getByRole("button", { name: "Increase quantity of Moringa Powder" }).click();
    await page.getByRole("button", { name: "Increase quantity of Moringa Powder" }).click();
    await page.getByTestId("cart-shipping").getByText("Free").waitFor();
    expect(await page.getByTestId("cart-total").textContent()).toBe("₹750");
    await context.close();
  });

  it("shows the toast for 2.5 seconds", async ({ browser }) => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.clock.install();
    await page.goto("/product/hair-growth-oil");
    // Paused, the page's time moves only with runFor, however slow the machine is.
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByRole("button", { name: "Add to cart" }).click();
    const toast = page.getByText("Hair Growth Oil was added to cart!");
    await toast.waitFor();
    await page.clock.runFor(2400);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(150);
    await toast.waitFor({ state: "detached" });
    await context.close();
  });

  it("marks an item out of stock and a changed price, and keeps checkout closed until it is fixed", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    await addFromPage(page, "/product/wax-powder", "Wax Powder");
    await addFromPage(page, "/product/chilli-powder", "Chilli Powder");
    await page.goto("/cart");
    await page.getByRole("link", { name: "Checkout" }).waitFor();

    // The worker's shop is shared: both products get back what they had, whatever earlier files left.
    const [wax] = await database.db.select().from(products).where(eq(products.slug, "wax-powder"));
    const [chilli] = await database.db.select().from(products).where(eq(products.slug, "chilli-powder"));
    await database.db.update(products).set({ stock: 0 }).where(eq(products.slug, "wax-powder"));
    await database.db.update(products).set({ pricePaise: 45000 }).where(eq(products.slug, "chilli-powder"));
    try {
      await page.reload();
      await page.getByText("Out of stock: not included in the total").waitFor();
      await page.getByText("Price changed since you added it (was ₹499)").waitFor();
      expect(await page.getByTestId("cart-subtotal").textContent()).toBe("₹450");
      const checkout = page.getByRole("button", { name: "Checkout" });
      expect(await checkout.isDisabled()).toBe(true);
      await page.getByText("Remove or change this item to continue: Wax Powder.").waitFor();
      await screenshot(page, "cart-unavailable-phone");

      await page.getByRole("button", { name: "Remove Wax Powder from cart" }).click();
      await page.getByRole("link", { name: "Checkout" }).waitFor();
      expect(await page.getByRole("link", { name: "Checkout" }).getAttribute("href")).toBe("/checkout");
    } finally {
      await database.db.update(products).set({ stock: wax?.stock }).where(eq(products.slug, "wax-powder"));
      await database.db
        .update(products)
        .set({ pricePaise: chilli?.pricePaise })
        .where(eq(products.slug, "chilli-powder"));
    }
    await context.close();
  });
});

describe("discount codes on the cart page", () => {
  it("gives each of the spec's messages to a guest, and keeps a used code used after removal", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop, { colorScheme: "dark" });
    const page = await context.newPage();
    await addFromPage(page, "/product/face-glow-oil", "Face Glow Oil");
    await page.goto("/cart");

    await applyCode(page, "glow2o");
    await page.getByRole("alert").getByText("Invalid discount code").waitFor();

    await applyCode(page, "welcome10");
    await page
      .getByRole("status")
      .getByText("10% off orders of ₹500 or more applied successfully!")
      .waitFor();
    await page.getByText("Add ₹1 more to get 10% off with WELCOME10.").waitFor();
    expect(await page.getByTestId("cart-discount").textContent()).toBe("₹0");
    await page.getByRole("button", { name: "Increase quantity of Face Glow Oil" }).click();
    await page.getByTestId("cart-discount").getByText("−₹100").waitFor(); // 10% of 998 = 99.80
    await screenshot(page, "cart-discount-guest-dark");

    await page.getByRole("button", { name: "Remove discount code WELCOME10" }).click();
    await applyCode(page, "WELCOME10");
    await page.getByRole("alert").getByText("This discount code has already been used").waitFor();

    await applyCode(page, "Glow20");
    await page.getByRole("status").getByText("Flat 20% off all products applied successfully!").waitFor();
    expect(await page.getByTestId("cart-discount").textContent()).toBe("−₹200"); // 20% of 998 = 199.60
    expect(await page.getByTestId("cart-total").textContent()).toBe("₹798");

    // The used list is the session store's, as the spec says; a reload keeps the code applied and used.
    await page.reload();
    await page.getByTestId("cart-discount").getByText("−₹200").waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("usedDiscountCodes"))).toBe(
      '["WELCOME10","GLOW20"]',
    );
    await context.close();
  });

  it("is enforced by the server when signed in: clearing the browser's storage does not free a code", async ({
    browser,
  }) => {
    const account = await newAccount();
    await addThroughApi(account, "hair-conditioning-pack");
    const context = await contextOn(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, account);
    const page = await context.newPage();
    await page.goto("/cart");
    await page.getByRole("heading", { name: "Your cart" }).waitFor();
    // A thumb's target at 375 px: 44 px is the floor for the line's buttons and the code's field and Apply.
    for (const control of [
      page.getByRole("button", { name: "Increase quantity of Hair Conditioning Pack" }),
      page.getByRole("button", { name: "Remove Hair Conditioning Pack from cart" }),
      page.getByLabel("Discount code"),
      page.getByRole("button", { name: "Apply" }),
    ]) {
      expect((await control.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    }

    await applyCode(page, "SAVE15");
    await page
      .getByRole("status")
      .getByText("15% off orders of ₹1,000 or more applied successfully!")
      .waitFor();
    await page.getByText("Add ₹301 more to get 15% off with SAVE15.").waitFor();
    await screenshot(page, "cart-discount-signed-in-phone");
    await page.getByRole("button", { name: "Remove discount code SAVE15" }).click();
    await page.getByLabel("Discount code").waitFor();

    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.reload();
    await applyCode(page, "save15");
    await page.getByRole("alert").getByText("This discount code has already been used").waitFor();
    await applyCode(page, "SAVE50");
    await page.getByRole("alert").getByText("Invalid discount code").waitFor();
    await context.close();
  });
});

describe("a signed-in shopper's cart", () => {
  it("takes in the guest's cart on sign-in: the same item's quantities summed, others appended", async ({
    browser,
  }) => {
    const account = await newAccount();
    await addThroughApi(account, "face-glow-oil", 2);

    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await addFromPage(page, "/product/face-glow-oil", "Face Glow Oil");
    await addFromPage(page, "/product/badam-mix", "Badam Mix");
    await page.goto("/cart");
    await applyCode(page, "GLOW20");
    await page.getByRole("status").getByText("Flat 20% off all products applied successfully!").waitFor();
    await badge(page, 2).waitFor();

    // Signing in (the session cookie arriving) is noticed without a reload.
    await signInContext(context, shop.url, account);
    await badge(page, 4).waitFor({ timeout: 5000 });
    expect(await quantityOf(page, "Face Glow Oil")).toBe("3");
    expect(await quantityOf(page, "Badam Mix")).toBe("1");
    const names = await page
      .getByTestId("cart-line")
      .evaluateAll((lines) => lines.map((li) => li.getAttribute("aria-label")));
    expect(names).toEqual(["Face Glow Oil", "Badam Mix"]);
    expect(await page.evaluate(() => localStorage.getItem("cart"))).toBeNull();

    const saved = await savedCart(account);
    expect(saved.lines.map((line) => [line.id, line.quantity])).toEqual([
      ["face-glow-oil", 3],
      ["badam-mix", 1],
    ]);
    expect(saved.discount?.code).toBe("GLOW20");
    await page.reload();
    await page.getByTestId("cart-discount").getByText("−₹379").waitFor(); // 20% of 1,896 = 379.20
    await context.close();
  });

  it("shows the saved cart when the merge fails, and keeps the guest's cart for another try", async ({
    browser,
  }) => {
    const account = await newAccount();
    await addThroughApi(account, "sathu-maavu");
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await addFromPage(page, "/product/abc-malt", "ABC Malt");
    await page.goto("/cart");
    await page.route("**/api/cart/merge", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "Briefly unavailable." } }),
      }),
    );

    await signInContext(context, shop.url, account);
    await page.getByLabel("Quantity of Sathu Maavu", { exact: true }).waitFor({ timeout: 5000 });
    await badge(page, 1).waitFor();
    expect(await page.getByLabel("Quantity of ABC Malt", { exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("cart"))).toContain("abc-malt");

    await page.unroute("**/api/cart/merge");
    await page.reload();
    await badge(page, 2).waitFor();
    expect(await quantityOf(page, "ABC Malt")).toBe("1");
    expect(await page.evaluate(() => localStorage.getItem("cart"))).toBeNull();
    await context.close();
  });

  it("does not add the guest's cart twice when the merge landed but its answer was lost", async ({
    browser,
  }) => {
    const account = await newAccount();
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await addFromPage(page, "/product/abc-malt", "ABC Malt");
    await page.goto("/cart");
    let landed = 0;
    await page.route("**/api/cart/merge", async (route) => {
      await route.fetch(); // the server takes the cart in...
      landed += 1;
      await route.abort("connectionreset"); // ...and the answer never arrives
    });

    await signInContext(context, shop.url, account);
    // A guest tab checks who is signed in every 2.5 s while visible, then merges.
    await expect.poll(() => landed, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.unrouteAll({ behavior: "wait" }); // every answer cut off before the reload
    await page.reload();
    await badge(page, 1).waitFor();
    expect(await quantityOf(page, "ABC Malt")).toBe("1");
    expect(await page.evaluate(() => localStorage.getItem("cart"))).toBeNull();
    expect((await savedCart(account)).lines.map((line) => [line.id, line.quantity])).toEqual([
      ["abc-malt", 1],
    ]);
    await context.close();
  });

  it("shows the saved cart in a tab left open while signing in in another, once it is back in front", async ({
    browser,
  }) => {
    const account = await newAccount();
    await addThroughApi(account, "coconut-oil", 2);
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("link", { name: "Login" }).waitFor();
    await badge(page, 0).waitFor();

    await signInContext(context, shop.url, account); // what signing in in another tab leaves behind
    // Headless Chromium keeps every tab visible, so the event a browser fires on coming back to a tab is sent here.
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await badge(page, 2).waitFor();
    await page.getByRole("button", { name: `Account menu for ${account.email}` }).waitFor();
    await context.close();
  });

  it("follows changes from another device within 5 seconds, also through another app instance", async ({
    browser,
  }) => {
    // A second instance of the app on the same database, as behind a load balancer: served from this process
    // (its own listeners, memo and sessions), no shop process of its own.
    const secondInstance = await startShopInProcess({ env: { DATABASE_URL: shop.databaseUrl ?? "" } });
    try {
      const account = await newAccount();
      const phone = await contextOn(browser, shop, { viewport: "phone" });
      const laptop = await contextOn(browser, secondInstance);
      await signInContext(phone, shop.url, account);
      await signInContext(laptop, secondInstance.url, account);
      const phonePage = await phone.newPage();
      const laptopPage = await laptop.newPage();

      await phonePage.goto("/cart");
      await phonePage.getByRole("heading", { name: "Your cart is empty" }).waitFor();
      await addFromPage(laptopPage, "/product/moringa-powder", "Moringa Powder");
      await phonePage.getByLabel("Quantity of Moringa Powder", { exact: true }).waitFor({ timeout: 5000 });
      await badge(phonePage, 1).waitFor();

      await laptopPage.goto("/cart");
      await phonePage.getByRole("button", { name: "Increase quantity of Moringa Powder" }).click();
      await badge(laptopPage, 2).waitFor({ timeout: 5000 });
      expect(await quantityOf(laptopPage, "Moringa Powder")).toBe("2");

      await laptopPage.getByRole("button", { name: "Remove Moringa Powder from cart" }).click();
      await phonePage.getByRole("heading", { name: "Your cart is empty" }).waitFor({ timeout: 5000 });
      await phone.close();
      await laptop.close();
    } finally {
      await secondInstance.stop();
    }
  });
});
