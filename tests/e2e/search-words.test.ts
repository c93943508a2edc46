import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { screenshotLightAndDark } from "../fixtures.ts";
import { it } from "../shop-test.ts";

const options = (page: Page) =>
  page.getByRole("main").getByRole("listbox", { name: "Matching products" }).getByRole("option");

/** Issue 41: "hair oil" found nothing; every typed word now counts, in any order, when the name's substring finds nothing. */
describe("searching by words", () => {
  it("finds Hair Growth Oil and Coconut Oil for 'hair oil', and answers the substring's queries as before", async ({
    page,
  }) => {
    await page.goto("/");
    const input = page.getByRole("main").getByRole("combobox", { name: "Search products" });
    await input.waitFor();

    await input.fill("hair oil");
    await expect.poll(() => options(page).count()).toBe(4);
    const found = await options(page).allTextContents();
    expect(found[0]).toBe("Hair Growth Oil₹475");
    expect(found).toContain("Coconut Oil₹350");
    await screenshotLightAndDark(page, "search-words-hair-oil-desktop");

    await input.fill("OIL hair");
    await expect.poll(() => options(page).allTextContents()).toEqual(found);

    // The spec's substring rule still answers what it answers, exactly.
    await input.fill("oil");
    await expect
      .poll(() => options(page).allTextContents())
      .toEqual(["Coconut Oil₹350", "Face Glow Oil₹499", "Hair Growth Oil₹475"]);
    await input.fill("hair growth");
    await expect
      .poll(() => options(page).allTextContents())
      .toEqual(["Hair Growth Oil₹475", "Hair Growth Serum₹450"]);

    await input.fill("lipstick");
    await page.getByText('No products found for "lipstick"').waitFor();

    // The API's search is the same rule.
    const answer = await page.request.get("/api/products?q=hair%20oil&pageSize=24");
    expect(answer.ok()).toBe(true);
    const body = (await answer.json()) as { items: { name: string }[]; total: number };
    expect(body.items.map((item) => item.name)).toEqual(
      expect.arrayContaining(["Hair Growth Oil", "Coconut Oil"]),
    );
    expect(body.total).toBe(4);
  });

  it("finds by words in the phone's search overlay", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    await page.goto("/");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    await page.getByRole("button", { name: "Search products" }).click();
    const dialog = page.getByRole("dialog", { name: "Search products" });
    await dialog.getByRole("combobox").pressSequentially("oil hair");
    await expect.poll(() => dialog.getByRole("option").count()).toBe(4);
    await dialog.getByRole("option", { name: /Coconut Oil/ }).waitFor();
    await screenshotLightAndDark(page, "search-words-hair-oil-phone");
  });
});
