import type { Browser } from "playwright-core";
import { signInContext, signUpViaHttp, type TestAccount } from "./accounts.ts";
import { newContext, type Shop, type StartedShop, startShopWithDatabase } from "./fixtures.ts";

/** The address ADMIN_EMAILS names in the admin tests: its account becomes the owner when it confirms. */
export const OWNER_EMAIL = "owner@example.in";

export type ShopWithOwner = StartedShop & { owner: TestAccount };

/**
 * The start of a test file about the admin: before its tests, the shop (ADMIN_EMAILS naming the owner, with
 * any other `env`, as startShopWithDatabase takes it), a browser, a pool on the shop's database and the
 * owner's confirmed account, handed to `receive`; after them, all stopped.
 */
export function startShopWithOwner(
  receive: (started: ShopWithOwner) => void,
  env: Parameters<typeof startShopWithDatabase>[1] = {},
) {
  startShopWithDatabase(
    async (started) => {
      receive({ ...started, owner: await signUpViaHttp(started.shop.url, OWNER_EMAIL) });
    },
    () => ({ ADMIN_EMAILS: OWNER_EMAIL, ...(typeof env === "function" ? env() : env) }),
  );
}

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
