import { describe, expect, it } from "vitest";
import { combineRatings } from "./reviews.ts";

describe("combineRatings", () => {
  it("keeps the catalogue's figures while no review is approved", () => {
    expect(combineRatings({ rating: 4.8, count: 256 }, { count: 0, ratingSum: 0 })).toEqual({
      rating: 4.8,
      count: 256,
    });
  });

  it("weights the catalogue's rating by its count and adds the approved reviews", () => {
    // (4.5 × 100 + 5 + 1) / 102 = 4.47 → 4.5; (4.0 × 2 + 5 × 2) / 4 = 4.5
    expect(combineRatings({ rating: 4.5, count: 100 }, { count: 2, ratingSum: 6 })).toEqual({
      rating: 4.5,
      count: 102,
    });
    expect(combineRatings({ rating: 4, count: 2 }, { count: 2, ratingSum: 10 })).toEqual({
      rating: 4.5,
      count: 4,
    });
  });

  it("uses only the reviews when the catalogue has no count, rounding to one decimal", () => {
    expect(combineRatings({ rating: 4.2, count: 0 }, { count: 3, ratingSum: 14 })).toEqual({
      rating: 4.7,
      count: 3,
    });
  });
});
