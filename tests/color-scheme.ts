import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { ColorScheme } from "./fixtures.ts";

/**
 * Switches the system setting under a loaded page and waits until the page shows it at rest: the theme class
 * follows (until a visitor picks a theme, the page follows the setting live), and no colour transition is
 * still running (a transition, even of 0.01 ms with reduced motion, starts at its old colour until the next
 * frame). Checking both themes on one loaded page costs one page load, not two.
 */
export async function showColorScheme(page: Page, colorScheme: ColorScheme) {
  await page.emulateMedia({ colorScheme });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")), {
      message: "the theme follows the system setting",
    })
    .toBe(colorScheme === "dark");
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((running) => !(running instanceof CSSTransition) || running.playState !== "running"),
  );
}
