import type { Browser } from "playwright-core";
import { signInContext, type TestAccount } from "./accounts.ts";
import { newContext, type Shop } from "./fixtures.ts";

/**
 * A browser context of its own, signed in as `account`, with a page on `path` once its heading is drawn: the
 * start of every test that looks at an admin page. `close` ends the context (and so the session's cookies).
 */
export async function openSignedInPage(
  browser: Browser,
  shop: Shop,
  account: TestAccount,
  path: string,
  options: Parameters<typeof newContext>[2],
) {
  const context = await newContext(browser, shop, options);
  await signInContext(context, shop.url, account);
  const page = await context.newPage();
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  return { page, close: () => context.close() };
}
