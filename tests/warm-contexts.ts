import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";

/**
 * Browser contexts a worker keeps from test to test, each with one page that stays warm (docs/decisions/092,
 * "A warm page per worker"). A fresh page costs Chromium about 1.3 CPU-s for its first load of the home page
 * and a page loaded again about 0.5: the difference is the page's renderer process (its V8 isolate, compile
 * and font caches) and Playwright's set-up of a page, not the context. A page left on about:blank between
 * tests loses its renderer and costs as much as a fresh one, so a released page is left on the shop's own
 * origin, on /robots.txt (plain text, no script).
 *
 * A context is handed out to one holder at a time and taken back when the holder closes it: then everything a
 * test can leave behind is undone (other pages closed, listeners the holder added removed, routes, cookies,
 * the origins' storage and the HTTP cache cleared, headers, offline, geolocation, permissions, window size,
 * emulated media and the page's history put back), so the next holder cannot tell it from a new one. What
 * cannot be undone (a clock installed, a function exposed, a script added before every load, a default
 * timeout changed, a page closed or crashed, any step of the reset failing) makes the context really close,
 * and the next holder gets a new one.
 */

type Settings = { viewport: { width: number; height: number }; colorScheme: "light" | "dark" };

type Kept = {
  key: string;
  browser: Browser;
  origin: string;
  settings: Settings;
  context: BrowserContext;
  /** The page kept warm: the first page the context opened. */
  page?: Page;
  cdp?: CDPSession;
  held: boolean;
  /** The reset under way since the holder closed it. */
  givingBack?: Promise<void>;
  /** Whether the holder already has the kept page (a second newPage opens another, closed on release). */
  pageHandedOut: boolean;
  /** Something was done to the context that a reset cannot undo. */
  spoilt: boolean;
  /** Every origin the pages visited while held, whose storage is cleared on release. */
  origins: Set<string>;
  listeners: { context: Listeners; page?: Listeners };
  close: () => Promise<void>;
  newPage: () => Promise<Page>;
};

type Listeners = Map<string | symbol, ((...args: unknown[]) => unknown)[]>;
type Emitter = {
  eventNames(): (string | symbol)[];
  rawListeners(event: string | symbol): ((...args: unknown[]) => unknown)[];
  removeListener(event: string | symbol, listener: (...args: unknown[]) => unknown): unknown;
};

/**
 * Kept contexts per worker: one for each look (width and theme) in use, on the latest shops. FRESH_CONTEXTS=1
 * keeps none, every context is new: to measure what the kept ones save, or to rule them out of a failure.
 */
const MAX_KEPT = process.env.FRESH_CONTEXTS === "1" ? 0 : 4;
const RESET_MS = 10_000;
const kept: Kept[] = [];
/** What a context and a page offer that a reset cannot take back. */
const IRREVERSIBLE = [
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "routeFromHAR",
  "setDefaultTimeout",
  "setDefaultNavigationTimeout",
];

/**
 * A context of `browser` with `settings` whose pages open `origin`: a kept one that nobody holds, else a new
 * one from `open` (kept when there is room). Its `close()` gives it back.
 */
export async function heldContext(
  browser: Browser,
  origin: string,
  settings: Settings,
  open: () => Promise<BrowserContext>,
): Promise<BrowserContext> {
  const key = `${origin} ${settings.viewport.width}x${settings.viewport.height} ${settings.colorScheme}`;
  const idle = kept.find((entry) => entry.key === key && entry.browser === browser && !entry.held);
  if (idle) {
    hold(idle);
    // The most recently used last: the first is the one to close when room is needed.
    kept.splice(kept.indexOf(idle), 1);
    kept.push(idle);
    return idle.context;
  }
  if (kept.length >= MAX_KEPT) {
    const spare = kept.find((entry) => !entry.held);
    if (!spare) return open();
    kept.splice(kept.indexOf(spare), 1);
    await spare.close().catch(() => undefined);
  }
  const context = await open();
  const entry = keep(context, browser, origin, settings, key);
  kept.push(entry);
  hold(entry);
  return context;
}

function keep(context: BrowserContext, browser: Browser, origin: string, settings: Settings, key: string) {
  const entry: Kept = {
    key,
    browser,
    origin,
    settings,
    context,
    held: false,
    pageHandedOut: false,
    spoilt: false,
    origins: new Set([origin]),
    listeners: { context: new Map() },
    close: context.close.bind(context),
    newPage: context.newPage.bind(context),
  };
  context.on("close", () => forget(entry));
  spoilBy(entry, context, IRREVERSIBLE);
  // page.clock is the context's clock.
  spoilBy(entry, context.clock, [
    "install",
    "setFixedTime",
    "setSystemTime",
    "runFor",
    "fastForward",
    "pauseAt",
    "resume",
  ]);
  context.newPage = async () => {
    if (entry.page && !entry.pageHandedOut && !entry.page.isClosed()) {
      entry.pageHandedOut = true;
      return entry.page;
    }
    const page = await entry.newPage();
    if (!entry.page) {
      entry.page = page;
      entry.pageHandedOut = true;
      watchPage(entry, page);
    }
    return page;
  };
  // A second close while the first is still resetting waits for the same reset; one after it does nothing.
  context.close = () => {
    if (entry.held) entry.givingBack ??= giveBack(entry);
    return entry.givingBack ?? Promise.resolve();
  };
  return entry;
}

function watchPage(entry: Kept, page: Page) {
  page.on("crash", () => {
    entry.spoilt = true;
  });
  page.on("framenavigated", (frame) => {
    const origin = new URL(frame.url()).origin;
    if (origin.startsWith("http")) entry.origins.add(origin);
  });
  spoilBy(entry, page, IRREVERSIBLE);
  // The holder's listeners are told apart from these by what was there when it took the page.
  entry.listeners.page = listenersOf(page);
}

/** Makes each of `methods` of `target` mark the kept context as one that cannot be reset. */
function spoilBy(entry: Kept, target: object, methods: string[]) {
  const methodsOf = target as Record<string, (...args: unknown[]) => unknown>;
  for (const name of methods) {
    const method = methodsOf[name];
    if (!method) throw new Error(`Playwright has no ${name} to watch any more`);
    methodsOf[name] = (...args: unknown[]) => {
      entry.spoilt = true;
      return method.apply(target, args);
    };
  }
}

function hold(entry: Kept) {
  entry.held = true;
  entry.pageHandedOut = false;
  entry.listeners.context = listenersOf(entry.context);
  if (entry.page) entry.listeners.page = listenersOf(entry.page);
}

function forget(entry: Kept) {
  const index = kept.indexOf(entry);
  if (index >= 0) kept.splice(index, 1);
}

/** Resets the context for the next holder (held until it is done, so none gets it half reset) or closes it. */
async function giveBack(entry: Kept) {
  const page = entry.page;
  try {
    if (entry.spoilt || !page || page.isClosed()) throw new Error("cannot be reset");
    await withinTime(reset(entry, page), RESET_MS);
  } catch {
    forget(entry);
    await entry.close().catch(() => undefined);
  } finally {
    entry.held = false;
    entry.givingBack = undefined;
  }
}

async function reset(entry: Kept, page: Page) {
  const { context } = entry;
  removeListenersSince(context, entry.listeners.context);
  if (entry.listeners.page) removeListenersSince(page, entry.listeners.page);
  await Promise.all(
    context
      .pages()
      .filter((other) => other !== page)
      .map((other) => other.close()),
  );
  await Promise.all([
    context.unrouteAll({ behavior: "ignoreErrors" }),
    page.unrouteAll({ behavior: "ignoreErrors" }),
    context.setExtraHTTPHeaders({}),
    page.setExtraHTTPHeaders({}),
    context.setOffline(false),
    context.setGeolocation(null),
    context.clearPermissions(),
  ]);
  // Off the holder's document (its scripts stop, its connections close) onto a plain one of the shop's origin,
  // which keeps the page's renderer. A page that asks before it is left is let go.
  const leave = (dialog: { accept: () => Promise<void> }) => dialog.accept().catch(() => undefined);
  page.on("dialog", leave);
  try {
    await page.goto(`${entry.origin}/robots.txt`);
  } finally {
    page.off("dialog", leave);
  }
  await page.evaluate(() => sessionStorage.clear());
  await context.clearCookies();
  entry.cdp ??= await context.newCDPSession(page);
  const cdp = entry.cdp;
  await Promise.all([
    ...[...entry.origins].map((origin) =>
      cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" }),
    ),
    cdp.send("Network.clearBrowserCache"),
    cdp.send("Page.resetNavigationHistory"),
    page.setViewportSize(entry.settings.viewport),
    page.emulateMedia({
      media: null,
      colorScheme: entry.settings.colorScheme,
      reducedMotion: "no-preference",
      forcedColors: "none",
      contrast: "no-preference",
    }),
  ]);
  entry.origins = new Set([entry.origin]);
}

function listenersOf(emitter: object): Listeners {
  const events = emitter as Emitter;
  return new Map(events.eventNames().map((event) => [event, [...events.rawListeners(event)]]));
}

function removeListenersSince(emitter: object, before: Listeners) {
  const events = emitter as Emitter;
  for (const event of events.eventNames()) {
    const kept = before.get(event) ?? [];
    for (const listener of events.rawListeners(event)) {
      if (!kept.includes(listener)) events.removeListener(event, listener);
    }
  }
}

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
