import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { screenshot, shoot } from "../fixtures.ts";
import { pauseClock } from "../paused-clock.ts";
import { it } from "../shop-test.ts";

/** The inline search bar of the home page (medium screens and up). */
async function openHome(page: Page) {
  await pauseClock(page);
  await page.goto("/");
  const input = page.getByRole("main").getByRole("combobox", { name: "Search products" });
  await input.waitFor();
  return input;
}

const options = (page: Page) =>
  page.getByRole("main").getByRole("listbox", { name: "Matching products" }).getByRole("option");

describe("searching products", () => {
  it("shows at most 8 matches, says how many there are, and says when there are none", async ({ page }) => {
    const input = await openHome(page);

    await input.fill("  ER ");
    await expect.poll(() => options(page).count()).toBe(8);
    expect(await input.getAttribute("aria-expanded")).toBe("true");
    await page.getByText("Showing first 8 results of 10").waitFor();
    await screenshot(page, "home-search-dropdown-desktop");

    await input.fill("oil");
    await expect
      .poll(() => options(page).allTextContents())
      .toEqual(["Coconut Oil₹350", "Face Glow Oil₹499", "Hair Growth Oil₹475"]);
    await page.getByText(/Showing first 8 results/).waitFor({ state: "hidden" });

    await input.fill("lipstick");
    await page.getByText('No products found for "lipstick"').waitFor();
    expect(await options(page).count()).toBe(0);

    // Empty text matches nothing: no list at all.
    await input.fill("   ");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
  });

  it("is driven from the keyboard: arrows move, Enter opens, Escape closes", async ({ page }) => {
    const input = await openHome(page);
    await input.fill("hair");
    await expect.poll(() => options(page).count()).toBe(5);

    await input.press("ArrowDown");
    const first = options(page).nth(0);
    expect(await first.getAttribute("aria-selected")).toBe("true");
    expect(await input.getAttribute("aria-activedescendant")).toBe(await first.getAttribute("id"));
    await input.press("ArrowDown");
    expect(await options(page).nth(1).getAttribute("aria-selected")).toBe("true");
    await input.press("ArrowUp");
    await input.press("ArrowUp"); // wraps to the last
    expect(await options(page).nth(4).getAttribute("aria-selected")).toBe("true");

    await input.press("Escape");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    expect(await input.inputValue()).toBe("hair");
    await input.press("Escape"); // a second Escape clears the text
    expect(await input.inputValue()).toBe("");

    await input.fill("glow");
    await input.press("ArrowDown");
    await input.press("Enter");
    await page.waitForURL("**/product/face-glow-oil");
  });

  it("opens on focus and closes 200 ms after the input loses focus", async ({ page }) => {
    const input = await openHome(page);
    await input.fill("mix");
    await expect.poll(() => options(page).count()).toBe(2);

    await input.blur();
    await page.clock.runFor(199);
    expect(await input.getAttribute("aria-expanded")).toBe("true");
    await page.clock.runFor(1);
    await expect.poll(() => input.getAttribute("aria-expanded")).toBe("false");
    expect(await options(page).first().isVisible()).toBe(false);

    await input.focus();
    await expect.poll(() => input.getAttribute("aria-expanded")).toBe("true");
    expect(await options(page).count()).toBe(2);

    // A click on a result lands before the list closes.
    await options(page).filter({ hasText: "Protein Mix" }).click();
    await page.waitForURL("**/product/protein-mix");
  });

  it("opens from the header's search button on a phone, where the inline bar is hidden", async ({
    openPage,
  }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    expect(await page.getByRole("main").getByRole("combobox", { name: "Search products" }).isVisible()).toBe(
      false,
    );

    await page.getByRole("button", { name: "Search products" }).click();
    const dialog = page.getByRole("dialog", { name: "Search products" });
    const input = dialog.getByRole("combobox", { name: "Search products" });
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    await input.pressSequentially("face");
    await expect.poll(() => dialog.getByRole("option").count()).toBe(3);
    await shoot(page, { path: "test-results/screenshots/home-search-overlay-phone.png" });

    // Escape closes the list first, then the dialog.
    await input.press("Escape");
    await input.press("Escape");
    await input.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Search products" }).click();
    await dialog.getByRole("combobox").fill("moringa");
    await dialog.getByRole("option", { name: /Moringa Powder/ }).click();
    await page.waitForURL("**/product/moringa-powder");
    await dialog.waitFor({ state: "hidden" });
  });
});
