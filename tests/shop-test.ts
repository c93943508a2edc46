import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, test as base, beforeAll, onTestFinished } from "vitest";
import { createDb } from "../server/db/client.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "./accounts.ts";
import { launchBrowser, newContext, type Shop, type ShopDatabase, startShop } from "./fixtures.ts";
import { startShopInProcess } from "./in-process-shop.ts";
import { OWNER_EMAIL } from "./signed-in-page.ts";

type ContextOptions = Parameters<typeof newContext>[2];

/**
 * Browser tests on shared fixtures: one shop and one Chromium per test worker (the e2e project runs its
 * files without isolation, so a worker keeps them from one file to the next), and a fresh browser context
 * for every test, closed after it.
 *
 * - `shop`: the real server on its own cloned database, with ADMIN_EMAILS naming OWNER_EMAIL, served from the
 *   worker's process (tests/in-process-shop.ts). Each fixture starts when a test (or a `beforeAll`) of the
 *   worker first asks for it, so a file on a shop of its own starts no shared one. Every file of
 *   a worker sees what the files before it wrote: accounts have addresses of their own (`uniqueEmail`), and
 *   a test that changes what every visitor sees (shop settings, banners, the catalogue) starts its own shop.
 * - `browser`: Chromium, shared; `database`: a small pool on the shop's database; `owner`: the owner's
 *   account, signed up once per worker.
 * - `context` and `page`: a desktop, light context of the test's own and a page in it.
 * - `openContext(options)`: more contexts (a phone, the dark theme, a second device), all closed after the test.
 * - `openPage(options)`: a page in a context of its own opened so, for a test that needs nothing of the context.
 * - `signedIn(account, options)`: a context carrying the account's session cookie, for every test where
 *   signing in is not what is tested.
 */
export const test = base
  // Vitest reads a fixture's dependencies from its first parameter, which must be an object pattern.
  // biome-ignore lint/correctness/noEmptyPattern: this fixture depends on no other
  .extend("shop", { scope: "worker" }, async ({}, { onCleanup }) => {
    // Served from the worker's process, as a file's own shop is: under a second to start, and started
    // only when a test of the worker first asks for it (a file on its own shop never does).
    const shop = await startShopInProcess({ env: { ADMIN_EMAILS: OWNER_EMAIL } });
    onCleanup(() => shop.stop());
    return shop;
  })
  // biome-ignore lint/correctness/noEmptyPattern: this fixture depends on no other
  .extend("browser", { scope: "worker" }, async ({}, { onCleanup }) => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("database", { scope: "worker" }, async ({ shop }, { onCleanup }) => {
    const database = createDb(shop.databaseUrl ?? "", { max: 2 });
    onCleanup(() => database.pool.end());
    return database;
  })
  .extend("owner", { scope: "worker" }, ({ shop }) => signUpViaHttp(shop.url, OWNER_EMAIL))
  .extend("openContext", async ({ browser, shop }, { onCleanup }) => {
    const contexts: BrowserContext[] = [];
    onCleanup(async () => {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    });
    return async (options: ContextOptions = {}) => {
      const context = await newContext(browser, shop, options);
      contexts.push(context);
      return context;
    };
  })
  .extend("openPage", ({ openContext }) => {
    return async (options: ContextOptions = {}): Promise<Page> => (await openContext(options)).newPage();
  })
  .extend("signedIn", ({ openContext, shop }) => {
    return async (account: TestAccount, options: ContextOptions = {}) => {
      const context = await openContext(options);
      await signInContext(context, shop.url, account);
      return context;
    };
  })
  .extend("context", ({ openContext }): Promise<BrowserContext> => openContext())
  .extend("page", ({ context }): Promise<Page> => context.newPage());

export const it = test;

/**
 * An address no other test of the worker's shop has used: files share a shop, and an address signs up once.
 * `name` starts it, so a screenshot or a failure still says whose it is.
 */
export function uniqueEmail(name: string): string {
  return `${name}.${randomBytes(3).toString("hex")}@example.in`;
}

export type { Shop };

// ---- A file's own shop process, in the worker's browser: only for a file that tests what the process itself
// does (browse: starting the embedded database as a fresh machine does). Every other file takes the
// in-process shop below.

type ProcessEnv = Record<string, string>;

/** How long a file's own shop process may take to start: a busy two-core machine missed 45 s. */
const OWN_SHOP_READY_MS = 90_000;
type OwnShopProcess = { shop: Shop; database: ShopDatabase; owner: TestAccount };

/**
 * Before the file's tests, its own shop (with `env`, which may be a function read when the shop starts, for
 * values a fake started in an earlier beforeAll gives), a small pool on its database and, with `owner`, the
 * owner's account (ADMIN_EMAILS naming OWNER_EMAIL), handed to `receive`; after them, all stopped. Its tests
 * take the worker's `browser` and open contexts on this shop with `contextOn` and `signedInOn`.
 */
export function ownShopProcessForFile(
  receive: (started: OwnShopProcess) => void | Promise<void>,
  options: { env?: ProcessEnv | (() => ProcessEnv); owner?: boolean; embedded?: boolean } = {},
) {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const env = typeof options.env === "function" ? options.env() : (options.env ?? {});
    const shop = await startShop({
      embedded: options.embedded,
      env: options.owner ? { ADMIN_EMAILS: OWNER_EMAIL, ...env } : env,
      readyWithinMs: OWN_SHOP_READY_MS,
    });
    // The embedded database has no URL to open a pool on.
    const database = shop.databaseUrl ? createDb(shop.databaseUrl, { max: 2 }) : undefined;
    stop = async () => {
      await database?.pool.end();
      await shop.stop();
    };
    const owner = options.owner ? await signUpViaHttp(shop.url, OWNER_EMAIL) : (undefined as never);
    await receive({ shop, database: database as ShopDatabase, owner });
  }, OWN_SHOP_READY_MS + 30_000);
  afterAll(() => stop?.());
}

/** A context on `shop` in `browser`, closed when the test ends, failed or not. */
export async function contextOn(browser: Browser, shop: Shop, options: ContextOptions = {}) {
  const context = await newContext(browser, shop, options);
  onTestFinished(() => context.close().catch(() => undefined));
  return context;
}

/** A context on `shop` carrying `account`'s session cookie, closed when the test ends. */
export async function signedInOn(
  browser: Browser,
  shop: Shop,
  account: TestAccount,
  options: ContextOptions = {},
) {
  const context = await contextOn(browser, shop, options);
  await signInContext(context, shop.url, account);
  return context;
}

/** A page of a signed-in context on `shop`, at `path` once its heading is drawn; the context closes after the test. */
export async function signedInPageOn(
  browser: Browser,
  shop: Shop,
  account: TestAccount,
  path: string,
  options: ContextOptions = {},
) {
  const page = await (await signedInOn(browser, shop, account, options)).newPage();
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  return { page, close: () => page.context().close() };
}

// ---- A file's own shop, in the worker's process (tests/in-process-shop.ts)

/**
 * What a file that keeps a shop of its own works with: its shop, a small pool on the shop's database, the
 * owner's account, the worker's Chromium, and contexts of it on the shop.
 */
export type OwnShop = {
  shop: Shop;
  browser: Browser;
  database: ReturnType<typeof createDb>;
  owner: TestAccount;
  /** A context on the file's shop: closed after the test that opened it, or after the file when a hook did. */
  openContext: (options?: ContextOptions) => Promise<BrowserContext>;
  /** A context carrying the account's session cookie, closed as `openContext`'s are. */
  signedIn: (account: TestAccount, options?: ContextOptions) => Promise<BrowserContext>;
};

type OwnShopEnv = Record<string, string> | (() => Record<string, string>);

/**
 * A shop of the file's own, for a file that changes what every visitor sees (settings, the catalogue, COD
 * rules, counts) or needs another environment (`env`: fake providers, PUBLIC_URL, limits): served from the
 * worker's process (`startShopInProcess`) on a database of its own, with ADMIN_EMAILS naming OWNER_EMAIL and
 * the owner signed up, its pages opened in the worker's shared Chromium. It starts before the file's tests
 * (then hands itself to `receive`, for files that keep `shop` and `browser` in variables) and stops after
 * them. `env` may be a function, read when the shop starts (a fake's address). Used in place of
 * `startShopWithOwner(receive, env)`, with the same arguments.
 */
export function ownShopForFile(
  receive?: (own: OwnShop) => void | Promise<void>,
  env: OwnShopEnv = {},
): OwnShop {
  const contexts = { test: [] as BrowserContext[], file: [] as BrowserContext[] };
  let inTest = false;
  const openContext = async (options: ContextOptions = {}) => {
    if (!own.browser) throw new Error("The file's shop is opened before its beforeAll has run");
    const context = await newContext(own.browser, own.shop, options);
    (inTest ? contexts.test : contexts.file).push(context);
    return context;
  };
  const own: OwnShop = {
    shop: undefined as unknown as Shop,
    browser: undefined as unknown as Browser,
    database: undefined as unknown as ReturnType<typeof createDb>,
    owner: undefined as unknown as TestAccount,
    openContext,
    async signedIn(account, options = {}) {
      const context = await openContext(options);
      await signInContext(context, own.shop.url, account);
      return context;
    },
  };
  const closeAll = (list: BrowserContext[]) =>
    Promise.all(list.splice(0).map((context) => context.close().catch(() => undefined)));
  test.beforeAll(async ({ browser }) => {
    own.browser = browser;
    own.shop = await startShopInProcess({
      env: { ADMIN_EMAILS: OWNER_EMAIL, ...(typeof env === "function" ? env() : env) },
    });
    own.database = createDb(own.shop.databaseUrl ?? "", { max: 2 });
    own.owner = await signUpViaHttp(own.shop.url, OWNER_EMAIL);
    await receive?.(own);
  });
  test.beforeEach(() => {
    inTest = true;
  });
  test.afterEach(async () => {
    inTest = false;
    await closeAll(contexts.test);
  });
  test.afterAll(async () => {
    await closeAll(contexts.file);
    await own.database?.pool.end();
    await own.shop?.stop();
  });
  return own;
}
