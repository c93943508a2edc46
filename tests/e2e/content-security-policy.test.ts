import { describe, expect } from "vitest";
import { waitForApp } from "../fixtures.ts";
import { it } from "../shop-test.ts";

/**
 * The shop's Content-Security-Policy refuses eval and every inline script but its own two. A page whose
 * code tries either anyway gets a violation in Chromium's Issues panel (which Lighthouse's best practices
 * count) even when the code catches the refusal, as zod's probe for eval does.
 */
const PAGES = ["/", "/product/face-glow-oil", "/combo/skincare-combo", "/search?q=oil", "/login", "/signup"];

describe("Content-Security-Policy", () => {
  it("is never violated by the shop's own pages once their app has started", async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    const violations: string[] = [];
    cdp.on("Audits.issueAdded", ({ issue }) => {
      if (issue.code !== "ContentSecurityPolicyIssue") return;
      const details = issue.details.contentSecurityPolicyIssueDetails;
      violations.push(
        `${page.url()}: ${details?.violatedDirective} ${details?.contentSecurityPolicyViolationType} ${details?.sourceCodeLocation?.url ?? ""}`,
      );
    });
    await cdp.send("Audits.enable");
    for (const path of PAGES) {
      await page.goto(path);
      await waitForApp(page);
      // A form's schema is made when the screen that uses it loads: open one where the page has it.
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
  });
});
