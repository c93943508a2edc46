import { describe, expect, it } from "vitest";
import { safeRedirectTarget, withRedirect } from "./redirect-target.ts";

describe("where to go after signing in", () => {
  it("keeps paths on this shop", () => {
    expect(safeRedirectTarget("/settings")).toBe("/settings");
    expect(safeRedirectTarget("/product/coconut-oil?x=1")).toBe("/product/coconut-oil?x=1");
  });

  it("refuses other sites, however they are written", () => {
    for (const value of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
    ]) {
      expect(safeRedirectTarget(value)).toBe("/");
    }
    expect(safeRedirectTarget(null, "/admin")).toBe("/admin");
  });

  it("carries the target through the sign-in pages", () => {
    expect(withRedirect("/login", "/settings")).toBe("/login?redirectTo=%2Fsettings");
    expect(withRedirect("/login", "/")).toBe("/login");
    expect(withRedirect("/login?mode=admin", "/admin")).toBe("/login?mode=admin&redirectTo=%2Fadmin");
    expect(withRedirect("/login", "//evil.example")).toBe("/login");
  });
});
