import { describe, expect, it } from "vitest";
import { brandPalette, checkBrandColour, contrastRatio } from "./contrast.ts";

describe("contrast ratios as WCAG defines them", () => {
  it("gives 21:1 for black on white and 1:1 for a colour on itself, either way round", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#15803d", "#15803d")).toBe(1);
  });

  it("matches published figures: #767676 on white is 4.54:1, #777777 4.48:1", () => {
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});

describe("checking a brand colour", () => {
  it("accepts the shop's green, every pairing at 4.5:1 or more", () => {
    const green = checkBrandColour("#166534");
    expect(green.problem).toBeNull();
    expect(green.pairs).toHaveLength(5);
    for (const pair of green.pairs) expect(pair.ratio, pair.where).toBeGreaterThanOrEqual(4.5);
  });

  it("refuses a colour white text cannot be read on, naming where and the ratio", () => {
    expect(checkBrandColour("#facc15").problem).toMatch(
      /^White text on buttons in this colour would be hard to read \(a contrast of 1\.\d\d:1, where text needs at least 4\.5:1\)/,
    );
    // Rounded down, so a colour just short of 4.5:1 never reads as passing.
    expect(checkBrandColour("#777777").problem).toContain("4.47:1");
  });

  it("keeps the colour the owner picked as the main shade and makes lighter and darker ones from it", () => {
    const palette = brandPalette("#1d4ed8");
    expect(palette["700"]).toBe("#1d4ed8");
    expect(contrastRatio(palette["50"], "#ffffff")).toBeLessThan(contrastRatio(palette["100"], "#ffffff"));
    expect(contrastRatio(palette["900"], "#ffffff")).toBeGreaterThan(
      contrastRatio(palette["800"], "#ffffff"),
    );
  });
});
