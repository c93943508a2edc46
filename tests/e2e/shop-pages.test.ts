import axe from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, type TestAccount } from "../accounts.ts";
import type { Shop, Viewport } from "../fixtures.ts";
import { screenshot, sidewaysOverflow, waitForApp } from "../fixtures.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

let shop: Shop;
let owner: TestAccount;

// A shop of its own: the policy pages and the blog it edits are what every visitor sees.
ownShopForFile((started) => {
  ({ shop, owner } = started);
});

/** axe's serious and critical findings on the page as it stands (evaluated, so the shop's CSP stays on). */
async function seriousAxeFindings(page: Page) {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run());
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

/** The server-rendered HTML a crawler or a first visit gets: no JavaScript, no cookies. */
const plainFetch = async (path: string) => {
  const response = await fetch(`${shop.url}${path}`);
  return { status: response.status, html: await response.text() };
};

// The owner's walk once per width; each screen on the way is looked at in both themes, switched under it (the
// walk itself does not change with the theme, its looks do).
const PASSES: Viewport[] = ["phone", "desktop"];

describe("the owner keeps the blog and the policy pages at /admin/pages", () => {
  for (const [index, viewport] of PASSES.entries()) {
    const looks = viewsAt([viewport]);
    it(`at ${viewport}, light and dark: edits the privacy policy and publishes an article, and the shop shows both at once`, async ({
      browser,
    }) => {
      const context = await contextOn(browser, shop, { viewport, colorScheme: "light" });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();

      // The list, reached from the admin's navigation beside Settings.
      await page.goto("/admin/settings");
      await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
      const nav = page.getByRole("navigation", { name: "Admin sections" });
      if (viewport === "phone") await nav.getByRole("button", { name: /^Sections:/ }).click();
      await nav.getByRole("link", { name: "Blog and pages", exact: true }).click();
      await page.getByRole("heading", { name: "Blog and pages", level: 1 }).waitFor();
      const policies = page.getByRole("list", { name: "Policy and contact pages" });
      expect(await policies.getByRole("listitem").count()).toBe(6);
      await inEachView(page, looks, async (_, scheme) => {
        expect(await sidewaysOverflow(page), scheme).toBe(0);
        expect(await seriousAxeFindings(page), scheme).toEqual([]);
        await screenshot(page, `shop-pages-list-${viewport}-${scheme}`);
      });

      // A policy page: a refusal keeps what was typed, then the save says where shoppers see it.
      await policies.getByRole("link", { name: "Privacy Policy" }).click();
      const form = page.getByRole("form", { name: "Page" });
      await form.getByLabel("Text", { exact: true }).waitFor();
      const line = `We reviewed this policy on pass ${index + 1}.`;
      const text = form.getByLabel("Text", { exact: true });
      await text.fill(`${await text.inputValue()}\n\n## Review ${index + 1}\n\n${line}\n`);
      await page.getByTestId("page-preview").getByText(line).waitFor();
      await form.getByLabel("Title").fill("");
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("Nothing was saved: please correct the fields marked below.").waitFor();
      expect(await text.inputValue()).toContain(line);
      await form.getByLabel("Title").fill("Privacy Policy");
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved. Shoppers see it now at /privacy.").waitFor();
      expect(await form.getByRole("button", { name: "Delete" }).count()).toBe(0);
      expect(await form.getByRole("button", { name: "Unpublish" }).count()).toBe(0);

      const privacy = await plainFetch("/privacy");
      expect(privacy.status).toBe(200);
      expect(privacy.html).toContain(`<h2>Review ${index + 1}</h2>`);
      expect(privacy.html).toContain(line);

      // A new article: a draft first, which the public does not see, then published.
      await page.goto("/admin/pages");
      await page.getByRole("link", { name: "New article" }).click();
      await page.getByRole("heading", { name: "New article", level: 1 }).waitFor();
      const title = `Neem for the scalp, part ${index + 1}`;
      const slug = `neem-for-the-scalp-part-${index + 1}`;
      await form.getByLabel("Title").fill(title);
      expect(await form.getByLabel("Address").inputValue()).toBe(slug);
      await form.getByLabel("Summary").fill("How neem leaves are used for the scalp at home.");
      await form
        .getByLabel("Text", { exact: true })
        .fill(`Boil a handful of **neem leaves**.\n\n<script>alert("x")</script>\n\n- Cool\n- Rinse\n`);
      const preview = page.getByTestId("page-preview");
      await preview.locator("strong", { hasText: "neem leaves" }).waitFor();
      expect(await preview.getByText('<script>alert("x")</script>').count()).toBe(1);
      await form.getByRole("button", { name: "Save draft" }).click();
      await page.getByText("Draft saved. Shoppers do not see it.").waitFor();
      await page.waitForURL(/\/admin\/pages\/\d+$/);
      expect((await plainFetch(`/blog/${slug}`)).status).toBe(404);
      expect((await plainFetch("/blog")).html).not.toContain(title);
      await inEachView(page, looks, async (_, scheme) => {
        expect(await sidewaysOverflow(page), scheme).toBe(0);
        expect(await seriousAxeFindings(page), scheme).toEqual([]);
        await screenshot(page, `shop-pages-editor-${viewport}-${scheme}`);
      });

      await form.getByRole("button", { name: "Publish" }).click();
      await page
        .getByText(`Published. Shoppers see it now at /blog/${slug}, and it is in the sitemap.`)
        .waitFor();
      const article = await plainFetch(`/blog/${slug}`);
      expect(article.status).toBe(200);
      expect(article.html).toContain("Boil a handful of <strong>neem leaves</strong>.");
      expect(article.html).toContain("&lt;script&gt;");
      expect(article.html).not.toContain('<script>alert("x")');
      expect((await plainFetch("/blog")).html).toContain(title);
      expect((await plainFetch("/sitemap.xml")).html).toContain(`/blog/${slug}</loc>`);
      await context.close();

      // A shopper in a browser sees both.
      const shopper = await contextOn(browser, shop, { viewport, colorScheme: "light" });
      const shopperPage = await shopper.newPage();
      await shopperPage.goto("/blog");
      await waitForApp(shopperPage);
      await shopperPage.getByRole("link", { name: title }).click();
      await shopperPage.getByRole("heading", { name: title, level: 1 }).waitFor();
      await shopperPage.getByRole("listitem").filter({ hasText: "Rinse" }).waitFor();
      await inEachView(shopperPage, looks, async (_, scheme) => {
        expect(await sidewaysOverflow(shopperPage), scheme).toBe(0);
        await screenshot(shopperPage, `shop-pages-article-${viewport}-${scheme}`);
      });
      await shopperPage.goto("/privacy");
      await waitForApp(shopperPage);
      await shopperPage.getByText(line).waitFor();
      await shopper.close();
    });
  }

  it("keeps changes not saved across leaving the editor, and deletes an article: its address shows the blog's not-found page and the sitemap drops it", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop, { viewport: "phone", colorScheme: "light" });
    await signInContext(context, shop.url, owner);
    const page = await context.newPage();
    await page.goto("/admin/pages");
    await page
      .getByRole("list", { name: "Blog articles" })
      .getByRole("link", { name: "Neem for the scalp, part 1" })
      .click();
    const form = page.getByRole("form", { name: "Page" });

    // Changes not saved survive leaving the editor: they are back when it is opened again, until discarded.
    const summary = form.getByLabel("Summary");
    const savedSummary = await summary.inputValue();
    await summary.fill("A summary typed and not yet saved.");
    await page.getByRole("link", { name: "Blog and pages" }).click();
    await page.getByRole("heading", { name: "Blog and pages", level: 1 }).waitFor();
    await page
      .getByRole("list", { name: "Blog articles" })
      .getByRole("link", { name: "Neem for the scalp, part 1" })
      .click();
    await page.getByText("Your changes from before, not yet saved, are back in the form").waitFor();
    expect(await summary.inputValue()).toBe("A summary typed and not yet saved.");
    await form.getByRole("button", { name: "Discard changes" }).click();
    expect(await summary.inputValue()).toBe(savedSummary);

    await form.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await page.getByRole("heading", { name: "Blog and pages", level: 1 }).waitFor();
    expect(await page.getByRole("link", { name: "Neem for the scalp, part 1" }).count()).toBe(0);
    const gone = await plainFetch("/blog/neem-for-the-scalp-part-1");
    expect(gone.status).toBe(404);
    // React writes the apostrophe as &#x27;.
    expect(gone.html).toContain("We couldn&#x27;t find that article");
    expect((await plainFetch("/sitemap.xml")).html).not.toContain("/blog/neem-for-the-scalp-part-1<");
    await context.close();
  });
});
