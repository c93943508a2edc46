import type { Page } from "playwright-core";

const START = new Date("2025-03-01T10:00:00+05:30");

/**
 * The page's clock made to stand still, on a fixed morning: only `page.clock.runFor()` moves it, so every timer
 * (a slide's turn, a search's pause before it asks) is exact. It pauses a minute after START, not a second: the
 * installed clock runs from START until paused, and on a busy machine more than a second can pass before the
 * pause, which then lies in the clock's past and is refused ("Cannot fast-forward to the past").
 */
export async function pauseClock(page: Page) {
  await page.clock.install({ time: START });
  await page.clock.pauseAt(new Date(START.getTime() + 60_000));
}
