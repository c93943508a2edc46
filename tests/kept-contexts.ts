import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";

/**
 * Browser contexts given again from one test to the next, their page kept on the shop's site.
 *
 * A page's first load in a new context costs Chromium about a CPU-second, and the same page loaded again in
 * the same tab under half of that (docs/decisions/092): a new context starts a new renderer process, which
 * parses and compiles the app's scripts and stylesheet again, where a tab that stays on the shop's site keeps
 * its renderer and what it compiled. So a context closed at the end of a test is, when nothing a test did to
 * it is beyond undoing, reset to what a new one is to a shopper (no cookies, no storage, no history, no
 * listeners, routes, headers or permissions, its size and theme) and given to the next test that asks for the
 * same shop, its page at the width and in the theme that test asks for; between tests the page waits on the
 * shop's `/robots.txt`, a document of the same site.
 *
 * What stays is what a returning visitor's browser keeps and the shop allows it to: the HTTP cache (the
 * shop's pages and answers say `no-cache` or `no-store`, its hashed scripts and pictures are immutable) and
 * the renderer's compiled scripts. A test whose subject is a first visit (what the scripts weigh, what a
 * new visitor downloads) asks for a new context (`fresh: true`).
 *
 * A context a test has done something to that a reset cannot undo (an init script, an installed clock, an
 * exposed function, a DevTools session of its own, a changed default timeout, its page closed or crashed) is
 * closed for good, as are contexts past the few kept per browser. `FRESH_CONTEXTS=1` gives every test a new
 * context, to measure against.
 */

/** The width and theme a test asks its context for: a kept page is set to them when given again. */
export type ContextView = {
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
};

type Kept = {
  context: BrowserContext;
  page: Page;
  shopUrl: string;
  /** What this test asked for: pages it opens are set to it too, as a new context's would be. */
  view: ContextView;
  /** Whether this test has had the kept page: its first `newPage()` gets it, later ones new pages. */
  pageGiven: boolean;
  inUse: boolean;
  beyondReset: boolean;
  cdp: CDPSession;
  /** The listeners the context and page had when kept (Playwright's own and the fixture's): a reset keeps only these. */
  ownListeners: Map<Listening, Set<unknown>>;
  reallyClose: () => Promise<void>;
  reallyNewPage: () => Promise<Page>;
};

/** How many idle contexts a browser keeps: a file works on one or two shops, most tests with one context. */
const KEPT_PER_BROWSER = 4;
const KEEP = process.env.FRESH_CONTEXTS !== "1";

const idle = new WeakMap<Browser, Kept[]>();

type Listening = {
  eventNames(): (string | symbol)[];
  rawListeners(event: string | symbol): unknown[];
  removeListener(event: string | symbol, listener: never): unknown;
};

const listenersOf = (emitter: Listening) =>
  new Set(emitter.eventNames().flatMap((event) => emitter.rawListeners(event)));

/** Removes every listener `emitter` has gained since `kept` was taken of it. */
function removeListenersSince(emitter: Listening, kept: Set<unknown>) {
  for (const event of emitter.eventNames()) {
    for (const listener of emitter.rawListeners(event)) {
      if (!kept.has(listener)) emitter.removeListener(event, listener as never);
    }
  }
}

/** What a reset cannot undo: calling one of these marks the context to be closed for good. */
const CONTEXT_BEYOND_RESET = [
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "newCDPSession",
  "setDefaultTimeout",
  "setDefaultNavigationTimeout",
  "setGeolocation",
  "setHTTPCredentials",
  "routeFromHAR",
  "routeWebSocket",
] as const;
const PAGE_BEYOND_RESET = [
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "setDefaultTimeout",
  "setDefaultNavigationTimeout",
  "routeFromHAR",
  "routeWebSocket",
  "setExtraHTTPHeaders",
] as const;
const CLOCK_METHODS = [
  "install",
  "fastForward",
  "pauseAt",
  "resume",
  "runFor",
  "setFixedTime",
  "setSystemTime",
] as const;

/**
 * An idle kept context on `shopUrl`, in use from now on, its page set to `view`; undefined when the browser
 * keeps none for that shop or the page cannot be set.
 */
export async function takeKeptContext(
  browser: Browser,
  shopUrl: string,
  view: ContextView,
): Promise<BrowserContext | undefined> {
  if (!KEEP) return undefined;
  const list = idle.get(browser) ?? [];
  const kept = list.find((candidate) => candidate.shopUrl === shopUrl);
  if (!kept) return undefined;
  list.splice(list.indexOf(kept), 1);
  try {
    await showView(kept.page, view);
  } catch {
    await kept.reallyClose().catch(() => undefined);
    return undefined;
  }
  Object.assign(kept, { view, inUse: true, pageGiven: false });
  return kept.context;
}

async function showView(page: Page, view: ContextView) {
  await page.setViewportSize(view.viewport);
  await page.emulateMedia({ colorScheme: view.colorScheme });
}

function markBeyondReset(kept: Kept, target: object, names: readonly string[]) {
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== "function") continue;
    methods[name] = (...args: unknown[]) => {
      kept.beyondReset = true;
      return original.apply(target, args);
    };
  }
}

/**
 * Makes a new context one that is kept when closed: its `close()` resets it and keeps it for the next test
 * (or closes it for good), its first `newPage()` in each test is the kept page. The context's own listeners
 * are on it already.
 */
export async function keepWhenClosed(
  browser: Browser,
  context: BrowserContext,
  shopUrl: string,
  view: ContextView,
): Promise<void> {
  if (!KEEP) return;
  const reallyNewPage = context.newPage.bind(context);
  // The kept page is made now, so the DevTools session the reset uses is the fixture's, not a test's.
  const page = await reallyNewPage();
  const kept: Kept = {
    context,
    page,
    shopUrl,
    view,
    pageGiven: false,
    inUse: true,
    beyondReset: false,
    cdp: await context.newCDPSession(page),
    ownListeners: new Map(),
    reallyClose: context.close.bind(context),
    reallyNewPage,
  };
  markBeyondReset(kept, context, CONTEXT_BEYOND_RESET);
  markBeyondReset(kept, kept.page, PAGE_BEYOND_RESET);
  markBeyondReset(kept, context.clock, CLOCK_METHODS);
  watchKeptPage(kept);
  for (const emitter of [context, kept.page] as unknown as Listening[]) {
    kept.ownListeners.set(emitter, listenersOf(emitter));
  }

  context.newPage = async () => {
    if (!kept.pageGiven && !kept.page.isClosed()) {
      kept.pageGiven = true;
      return kept.page;
    }
    const page = await kept.reallyNewPage();
    await showView(page, kept.view);
    return page;
  };
  context.close = async () => {
    if (!kept.inUse) return;
    kept.inUse = false;
    if (kept.beyondReset || !(await resetKept(kept)) || kept.beyondReset) {
      await kept.reallyClose().catch(() => undefined);
      return;
    }
    const list = idle.get(browser) ?? [];
    idle.set(browser, list);
    list.push(kept);
    // The longest idle goes first: most likely a shop a finished file started.
    for (const old of list.splice(0, Math.max(0, list.length - KEPT_PER_BROWSER))) {
      await old.reallyClose().catch(() => undefined);
    }
  };
}

/** A kept page closed or crashed cannot be given again. */
function watchKeptPage(kept: Kept) {
  const lost = () => {
    kept.beyondReset = true;
  };
  kept.page.once("close", lost);
  kept.page.once("crash", lost);
}

/** Puts a kept context back to what a new one is to a shopper; false when it could not. */
async function resetKept(kept: Kept): Promise<boolean> {
  const { context, page, cdp, shopUrl } = kept;
  if (page.isClosed()) return false;
  try {
    await Promise.all(
      context
        .pages()
        .filter((other) => other !== page)
        .map((other) => other.close()),
    );
    for (const [emitter, own] of kept.ownListeners) removeListenersSince(emitter, own);
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await context.setExtraHTTPHeaders({});
    await context.setOffline(false);
    await context.clearPermissions();
    // Leaving the test's document stops its scripts and timers before the storage they write is cleared.
    await page.goto(new URL("/robots.txt", shopUrl).href, { waitUntil: "commit" });
    await page.evaluate(() => sessionStorage.clear());
    await cdp.send("Storage.clearDataForOrigin", {
      origin: new URL(shopUrl).origin,
      storageTypes:
        "local_storage,indexeddb,cache_storage,service_workers,websql,file_systems,shared_storage",
    });
    await context.clearCookies();
    // Its width and theme are set when it is given again; what else a test emulated goes.
    await page.emulateMedia({ media: null, reducedMotion: null, forcedColors: null });
    await cdp.send("Page.resetNavigationHistory");
    return true;
  } catch {
    return false;
  }
}
