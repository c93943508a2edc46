import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Shop, VIEWPORTS } from "./fixtures.ts";

/**
 * A low-end phone on a slow mobile connection, as issue 27 measured the lost taps: the CPU slowed 4x and
 * the network at 1.6 Mbit/s down, 750 kbit/s up, 150 ms of latency (Lighthouse's "slow 4G").
 */
export const SLOW_PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
} as const;

/** Slows the page's CPU and network through the DevTools protocol (Chromium only). */
export async function slowDown(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW_PHONE.cpuSlowdown });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: SLOW_PHONE.latencyMs,
    downloadThroughput: SLOW_PHONE.downloadBytesPerSecond,
    uploadThroughput: SLOW_PHONE.uploadBytesPerSecond,
  });
}

/**
 * A fresh context on a slowed page. Unlike tests/fixtures.ts's newContext, page.goto here does not wait for
 * the app to start: these pages are for acting before it has.
 */
export async function slowPhonePage(
  browser: Browser,
  shop: Shop,
  options: { viewport?: keyof typeof VIEWPORTS; colorScheme?: "light" | "dark" } = {},
) {
  const context = await browser.newContext({
    baseURL: shop.url,
    viewport: VIEWPORTS[options.viewport ?? "phone"],
    colorScheme: options.colorScheme ?? "light",
  });
  const page = await context.newPage();
  await slowDown(context, page);
  return { context, page };
}

/** Whether the app has started (web/routes/root-layout.tsx marks it once hydrated). */
export const appStarted = (page: Page) =>
  page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"));
