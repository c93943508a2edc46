import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type ColorScheme, screenshot, shoot, sidewaysOverflow } from "./fixtures.ts";

/**
 * Switches the system setting under a loaded page and waits until the page shows it at rest: the theme class
 * follows (until a visitor picks a theme, the page follows the setting live), and no colour transition is
 * still running (a transition, even of 0.01 ms with reduced motion, starts at its old colour until the next
 * frame). Checking both themes on one loaded page costs one page load, not two.
 *
 * The class follows through the app's listener of the setting, so the app must have started first: a setting
 * switched before it has is never heard (page.goto stops waiting for the app after 5 s, which a busy machine
 * can take), and the page would stay in the theme it loaded in.
 */
export async function showColorScheme(page: Page, colorScheme: ColorScheme) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains("dark") === dark,
    colorScheme === "dark",
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((running) => !(running instanceof CSSTransition) || running.playState !== "running"),
  );
}

/**
 * Once nothing on the page sticks out sideways, pictures of its region named `region` in the light and the
 * dark theme (test-results/screenshots/`name`-light.png, -dark.png) and of the whole page, for a person to look
 * at; the page is left light.
 */
export async function shootRegionLightAndDark(page: Page, region: string, name: string) {
  expect(await sidewaysOverflow(page), `${name} overflows`).toBeLessThanOrEqual(0);
  const panel = page.getByRole("region", { name: region });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await panel.scrollIntoViewIfNeeded();
    await shoot(panel, { path: `test-results/screenshots/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, `${name}-page`);
}
