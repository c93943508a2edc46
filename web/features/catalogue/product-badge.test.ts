import { describe, expect, it } from "vitest";
import { BADGES } from "../../../common/catalogue.ts";
import { badgeColours, isOnSale } from "./product-badge.tsx";

describe("badgeColours", () => {
  it("gives each of the five badges its own colour", () => {
    const colours = BADGES.map(badgeColours);
    expect(new Set(colours).size).toBe(5);
    expect(colours).not.toContain(badgeColours("Most Popular"));
  });

  it("makes every other label grey", () => {
    expect(badgeColours("Family Pack")).toBe(badgeColours("Most Popular"));
    expect(badgeColours("Family Pack")).toContain("stone");
  });
});

describe("isOnSale", () => {
  it("is true only when the original price exceeds the price", () => {
    expect(isOnSale(39900, 49900)).toBe(true);
    expect(isOnSale(49900, 49900)).toBe(false);
    expect(isOnSale(49900, 39900)).toBe(false);
    expect(isOnSale(49900, null)).toBe(false);
  });
});
