import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { runServer } from "../scripts/build-server.ts";
import { createDb } from "../server/db/client.ts";
import { findFreePort } from "../server/db/embedded.ts";
import {
  createTestDatabase,
  GENEROUS_RATE_LIMITS,
  knowAccountDatabase,
  TEST_AUTH_SECRET,
} from "./database.ts";
import { keepWhenClosed, takeKeptContext } from "./kept-contexts.ts";

const root = path.resolve(import.meta.dirname, "..");

export type Shop = {
  url: string;
  dataDir: string;
  /** The server process, for tests that watch its memory. */
  pid: number;
  /** The shop's test database (unset for an embedded one), for a second instance or direct checks. */
  databaseUrl?: string;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * Starts the real server (built as `npm start` runs it, with the built web app) on a free port with a throwaway
 * data directory. By default it gets a cloned test database; `embedded: true` makes it start
 * its own embedded PostgreSQL the way `npm start` does on a fresh machine. `readyWithinMs` (45 s by
 * default) is how long it may take to answer /api/ready.
 */
export async function startShop(
  options: { embedded?: boolean; env?: Record<string, string>; readyWithinMs?: number } = {},
): Promise<Shop> {
  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "shop-e2e-"));
  const database = options.embedded ? undefined : await createTestDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database?.url ?? "",
    BETTER_AUTH_SECRET: database ? TEST_AUTH_SECRET : "",
    ...GENEROUS_RATE_LIMITS,
    ...options.env,
  };
  let output = "";
  const child = spawn(process.execPath, runServer, { cwd: root, env });
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, () => output, options.readyWithinMs ?? 45_000);
  // Test accounts are written into the shop's database when it is the cloned one the shop runs on.
  const forgetDatabase =
    database && !options.env?.DATABASE_URL && !options.env?.BETTER_AUTH_SECRET
      ? knowAccountDatabase(url, database.db)
      : () => {};
  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    databaseUrl: options.env?.DATABASE_URL || database?.url,
    output: () => output,
    async stop() {
      forgetDatabase();
      await stopProcess(child);
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`The shop did not become ready within ${withinMs / 1000} s:\n${output()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The browser the tests drive: Debian's headless shell of Chromium (`chromium-headless-shell`, the same build
 * as `/usr/bin/chromium` in Chromium's old headless mode, the one Playwright itself runs headless tests in). A
 * new context with its first page cost about 2.3 CPU-s in the full browser's headless mode (its browser process
 * sets up a whole profile for each context, and each page's renderer starts a browser window's worth of
 * services) and about 0.4 in the shell (docs/decisions/092): contexts are what every test makes. A run that
 * takes pictures for a person to look at (SCREENSHOTS=1) draws them in the full browser, `/usr/bin/chromium`.
 */
export function launchBrowser(): Promise<Browser> {
  const executablePath = SCREENSHOTS ? "/usr/bin/chromium" : "/usr/bin/chromium-headless-shell";
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * The shop and a browser for one test file, started together; `stop` closes both. A file holds them as
 * `({ shop, browser, stop } = await startShopAndBrowser())` in its beforeAll and `stop?.()` in its afterAll.
 */
export async function startShopAndBrowser(options?: Parameters<typeof startShop>[0]) {
  const [shop, browser] = await Promise.all([startShop(options), launchBrowser()]);
  const stop = async () => {
    await browser.close();
    await shop.stop();
  };
  return { shop, browser, stop };
}

/**
 * The start of a browser test file: before its tests, the shop (started with `options`) and a browser, handed
 * to `receive`; after them, both stopped.
 */
export function startShopForFile(
  receive: (started: { shop: Shop; browser: Browser }) => void,
  options?: Parameters<typeof startShop>[0],
) {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startShopAndBrowser(options);
    stop = started.stop;
    receive(started);
  });
  afterAll(() => stop?.());
}

export type ShopDatabase = ReturnType<typeof createDb>;
export type StartedShop = { shop: Shop; browser: Browser; database: ShopDatabase };

type ShopEnv = Record<string, string>;

/**
 * The start of a test file that also sets up or checks rows directly: before its tests, the shop (with `env`),
 * a browser and a small pool on the shop's own database, handed to `receive`; after them, all three stopped.
 * `env` may be a function, read when the shop starts, for values a fake started in an earlier beforeAll gives.
 */
export function startShopWithDatabase(
  receive: (started: StartedShop) => void | Promise<void>,
  env: ShopEnv | (() => ShopEnv) = {},
) {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startShopAndBrowser({ env: typeof env === "function" ? env() : env });
    const database = createDb(started.shop.databaseUrl ?? "", { max: 2 });
    stop = async () => {
      await database.pool.end();
      await started.stop();
    };
    await receive({ shop: started.shop, browser: started.browser, database });
  });
  afterAll(() => stop?.());
}

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  tablet: { width: 768, height: 1024 },
  desktop: { width: 1280, height: 900 },
} as const;

export type Viewport = keyof typeof VIEWPORTS;
export type ColorScheme = "light" | "dark";

/**
 * A context on `shop` at a width and in a theme (desktop and light unless asked): one a test before this one
 * closed and that was reset for the next (tests/kept-contexts.ts), or a new one; `fresh` asks for a new one,
 * for a test of what a first visit downloads.
 */
export async function newContext(
  browser: Browser,
  shop: Shop,
  options: { viewport?: Viewport; colorScheme?: ColorScheme; fresh?: boolean } = {},
): Promise<BrowserContext> {
  const view = {
    viewport: VIEWPORTS[options.viewport ?? "desktop"],
    colorScheme: options.colorScheme ?? "light",
  };
  const kept = options.fresh ? undefined : await takeKeptContext(browser, shop.url, view);
  if (kept) return kept;
  const context = await browser.newContext({ baseURL: shop.url, ...view });
  context.on("page", waitForHydrationAfterLoads);
  if (!options.fresh) await keepWhenClosed(browser, context, shop.url, view);
  return context;
}

// How long a page the server rendered may take to hydrate before a test goes on anyway (a test that
// blocks the app's scripts on purpose never hydrates).
const HYDRATION_WAIT_MS = 5000;

/**
 * A page the server rendered shows its buttons before React has hydrated them; a click in between is kept
 * and carried out only when the app starts (decision 063), later than a test acting at machine speed looks
 * for its result. So page.goto and page.reload on server-rendered pages also wait until the app responds.
 */
function waitForHydrationAfterLoads(page: Page) {
  const afterLoad =
    <Args extends unknown[], Result>(navigate: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      const result = await navigate(...args);
      const serverRendered = await page
        .evaluate(() => document.getElementById("router-data") !== null)
        .catch(() => false);
      if (serverRendered) {
        await page
          .locator("html[data-hydrated]")
          .waitFor({ state: "attached", timeout: HYDRATION_WAIT_MS })
          .catch(() => undefined);
      }
      return result;
    };
  page.goto = afterLoad(page.goto.bind(page));
  page.reload = afterLoad(page.reload.bind(page));
}

/** The header's menus, in the spec's order and words: the desktop bar and the phone menu both list them. */
export const HEADER_MENUS = ["Bestsellers", "Hair", "Face", "Body", "Milk Range", "Combos & Gifting"];

/**
 * The catalogue as the page's app gets it, with no product in the menu `menu` (a menu with nothing in it).
 * Only for pages rendered in the browser (the cart): public pages carry their catalogue in the server's HTML.
 */
export function catalogueWithoutMenu(page: Page, menu: string) {
  return page.route("**/api/catalogue", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { products: { menus: string[] }[] };
    for (const product of body.products) product.menus = product.menus.filter((name) => name !== menu);
    await route.fulfill({ response, json: body });
  });
}

/** Opens `path` in a new context and waits for its main heading and for the page to respond; close() ends the context. */
export async function openPage(
  browser: Browser,
  shop: Shop,
  path: string,
  options: Parameters<typeof newContext>[2] = {},
) {
  const context = await newContext(browser, shop, options);
  const page = await context.newPage();
  await page.goto(path);
  await waitForApp(page);
  return { page, close: () => context.close() };
}

/**
 * Public pages arrive rendered from the server: their heading is there before React has hydrated them,
 * and a click would be carried out only when it has. Waits for both.
 */
export async function waitForApp(page: Page) {
  await page.locator("main h1").first().waitFor();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** The title is set just after the screen renders; wait for it rather than racing it. */
export async function expectTitle(page: Page, title: string) {
  await page
    .waitForFunction((expected) => document.title === expected, title, { timeout: 5000 })
    .catch(() => {});
  await expect(page.title()).resolves.toBe(title);
}

/** How far the page reaches past the right edge of the window, in CSS pixels: 0 when nothing scrolls sideways. */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Whether the browser tests take their screenshots: only when asked, `SCREENSHOTS=1 npx vitest run <file>`
 * (README). They are for people to look at and no test reads them, and a full-page picture costs Chromium
 * more CPU than the checks around it (docs/decisions/092), so a run that only checks takes none.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === "1";

/** Screenshots land in test-results/screenshots/, for people to look at; tests never compare pixels. */
export async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  const folder = path.join(root, "test-results", "screenshots");
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

/** A picture of a part of a page (or of the window) at a path of its own: taken only with SCREENSHOTS=1. */
export async function shoot(target: Page | Locator, options: { path: string; fullPage?: boolean }) {
  if (!SCREENSHOTS) return;
  await target.screenshot({ ...options, path: path.resolve(root, options.path) });
}

/** The screen at the context's width in light, then dark, after checking nothing is wider than the window. */
export async function screenshotLightAndDark(page: Page, name: string) {
  expect(await sidewaysOverflow(page), `${name} overflows`).toBeLessThanOrEqual(0);
  if (!SCREENSHOTS) return;
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * Scrolls down a page as a reader does, a stop at a time, until the footer is there, then back to the top.
 * The lower parts of pages (the footer, the home page's later sections) load only as they come near.
 */
export async function scrollThrough(page: Page) {
  await page.locator("main h1").first().waitFor(); // the page itself has rendered: its length is known
  // The stops are made in the page, two frames at each (so the browser notices what is coming near), in one
  // round trip rather than one per stop.
  await page.evaluate(async () => {
    const frames = async () => {
      for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
    };
    for (let top = 0; top < document.documentElement.scrollHeight; top += 500) {
      window.scrollTo({ top, behavior: "instant" });
      await frames();
    }
  });
  // Sections arriving late push the footer down again: stay at the bottom, looking again every frame, until
  // it and every section that loads as it comes near are there.
  await page
    .waitForFunction(
      () => {
        window.scrollTo({ top: Number.MAX_SAFE_INTEGER, behavior: "instant" });
        return (
          document.querySelector("footer") !== null &&
          document.querySelector("[data-load-when-near]") === null
        );
      },
      undefined,
      { polling: "raf", timeout: 15_000 },
    )
    .catch(() => {
      throw new Error("The footer or a lower section did not load at the bottom of the page");
    });
  // Back up to the top a stop at a time, from the very bottom now that the footer has taken its room: a section
  // that arrived after it was passed on the way down comes near again, and so do its pictures.
  await page.evaluate(async () => {
    for (let top = document.documentElement.scrollHeight; top > 0; top -= 500) {
      window.scrollTo({ top, behavior: "instant" });
      for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
    }
    window.scrollTo({ top: 0, behavior: "instant" });
    for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
  });
}

/** Scrolls a page top to bottom and back, so lazy images load before a full-page screenshot. */
export async function loadLazyImages(page: Page) {
  await scrollThrough(page);
  // Images that take up no room (in closed menus) are never fetched; every other one must be complete.
  try {
    await page.waitForFunction(
      () =>
        [...document.images].every((image) => image.complete || image.getBoundingClientRect().height === 0),
      undefined,
      { timeout: 15_000 },
    );
  } catch {
    const pending = await page.evaluate(() =>
      [...document.images]
        .filter((image) => !image.complete && image.getBoundingClientRect().height > 0)
        .map((image) => image.currentSrc || image.src),
    );
    throw new Error(`Images still loading: ${pending.join(", ")}`);
  }
}
