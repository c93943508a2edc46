import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectTarget, withRedirect } from "./redirect-target.ts";

const SHOP = "https://shop.example";

/** Where a browser goes when this page address is given as a redirect on the shop. */
const landsOn = (target: string) => new URL(target, `${SHOP}/login`).origin;

describe("where to go after signing in", () => {
  it("keeps paths on this shop", () => {
    for (const path of [
      "/",
      "/settings",
      "/product/coconut-oil?x=1",
      "/orders/PN-2026-000123#payment",
      "/search?q=hair%20oil&sort=price",
      "/login?redirectTo=%2Fsettings",
    ]) {
      expect(safeRedirectTarget(path)).toBe(path);
    }
  });

  it("refuses other sites, however they are written", () => {
    for (const value of [
      "https://evil.example",
      "http:evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      " //evil.example",
      "/ /evil.example",
      "/%09/evil.example",
      "/%0a/evil.example",
      "/%2F/evil.example",
      "/%2f%2fevil.example",
      "/%5Cevil.example",
      "/%5c%5cevil.example",
      "/\u0000/evil.example",
      "/\u007f/evil.example",
      "/\u00a0/evil.example",
      "/\u2028/evil.example",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "evil.example",
      "",
      `/${"a".repeat(3000)}`,
    ]) {
      expect(safeRedirectTarget(value), JSON.stringify(value)).toBe("/");
    }
    expect(safeRedirectTarget(null, "/admin")).toBe("/admin");
    expect(safeRedirectTarget(undefined, "/admin")).toBe("/admin");
  });

  it("carries the target through the sign-in pages", () => {
    expect(withRedirect("/login", "/settings")).toBe("/login?redirectTo=%2Fsettings");
    expect(withRedirect("/login", "/")).toBe("/login");
    expect(withRedirect("/login?mode=admin", "/admin")).toBe("/login?mode=admin&redirectTo=%2Fadmin");
    expect(withRedirect("/login", "//evil.example")).toBe("/login");
    expect(withRedirect("/login", "/\t/evil.example")).toBe("/login");
  });
});

describe("the filter, over generated input", () => {
  // Characters that browsers and URL parsers treat specially, mixed into otherwise ordinary text.
  const tricky = fc.constantFrom(
    "/",
    "\\",
    "\t",
    "\n",
    "\r",
    " ",
    "\u0000",
    "\u000b",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "%",
    "%09",
    "%2f",
    "%2F",
    "%5c",
    "%00",
    "%25",
    ":",
    "@",
    "?",
    "#",
    ".",
    "..",
    "evil.example",
    "javascript:",
    "http:",
    "／",
    "＼",
  );
  const input = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join("")),
    fc
      .array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 })
      .map((parts) => `/${parts.join("")}`),
  );

  it("never leaves the shop, whatever it is given", () => {
    fc.assert(
      fc.property(input, (value) => {
        const target = safeRedirectTarget(value);
        expect(target.startsWith("/")).toBe(true);
        expect(landsOn(target)).toBe(SHOP);
        // What a browser would do with it after dropping tabs and newlines, as the URL standard says.
        expect(landsOn(target.replace(/[\t\n\r]/g, ""))).toBe(SHOP);
        expect(target).not.toMatch(/[\\\p{Cc}]/u);
      }),
      { numRuns: 5000 },
    );
  });

  it("gives the same answer when asked again", () => {
    fc.assert(
      fc.property(input, (value) => {
        const once = safeRedirectTarget(value);
        expect(safeRedirectTarget(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every plain path of the shop as it is", () => {
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);
    const path = fc
      .tuple(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.option(fc.stringMatching(/^[a-z]{1,8}=[a-z0-9]{0,10}(%20[a-z]{1,5})?$/), { nil: undefined }),
      )
      .map(([segments, query]) => `/${segments.join("/")}${query ? `?${query}` : ""}`);
    fc.assert(
      fc.property(path, (value) => {
        expect(safeRedirectTarget(value)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });
});
