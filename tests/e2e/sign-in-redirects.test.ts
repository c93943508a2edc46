import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signUpViaHttp, TEST_PASSWORD, type TestAccount } from "../accounts.ts";
import { type Shop, screenshot } from "../fixtures.ts";
import { it, uniqueEmail } from "../shop-test.ts";

let shopper: TestAccount;
it.beforeAll(async ({ shop }) => {
  shopper = await signUpViaHttp(shop.url, uniqueEmail("kavya"));
});

// As typed into the address bar: each is a way off the shop that an older filter let through.
const HOSTILE = [
  "/%09/evil.example",
  "/%0A/evil.example",
  "/%0D%0A/evil.example",
  "%2F%2Fevil.example",
  "/%5Cevil.example",
  "javascript:alert(1)",
  "https://evil.example/",
];

/** The shop's home page is showing, settled: its heading, no "Loading page", still on this shop. */
async function expectHomePage(page: Page, shop: Shop) {
  await page.waitForURL(`${shop.url}/`, { timeout: 10_000 });
  await page.locator("main h1").first().waitFor({ timeout: 10_000 });
  await page.waitForLoadState("networkidle");
  expect(await page.locator(`[role="status"]`, { hasText: "Loading" }).count()).toBe(0);
  expect(new URL(page.url()).origin).toBe(shop.url);
}

describe("a sign-in page given somewhere off the shop to go afterwards", () => {
  it("sends a signed-in shopper to the home page instead", async ({ shop, signedIn }) => {
    const page = await (await signedIn(shopper)).newPage();
    for (const target of HOSTILE) {
      await page.goto(`/login?redirectTo=${target}`);
      await expectHomePage(page, shop);
    }
    await screenshot(page, "sign-in-hostile-redirect");
  });

  // Signing in is what is tested here: through the form.
  it("signs a shopper in and lands on the home page", async ({ shop, page }) => {
    await page.goto("/login?redirectTo=/%09/evil.example");
    await page.getByLabel("E-mail", { exact: true }).fill(shopper.email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectHomePage(page, shop);
  });

  it("still goes on to a page of the shop", async ({ shop, signedIn }) => {
    const page = await (await signedIn(shopper)).newPage();
    await page.goto("/login?redirectTo=%2Fsettings");
    await page.waitForURL(`${shop.url}/settings`);
  });
});
