import { describe, expect, it } from "vitest";
import { estimateDelivery, formatEstimate } from "./delivery-estimate.ts";

describe("estimated delivery", () => {
  it("is 3-5 days to the courier plus 2-4 days in transit, counted in Indian dates", () => {
    // Monday 2 March 2026, 10:00 in India
    expect(estimateDelivery(new Date("2026-03-02T04:30:00Z"))).toEqual({
      from: "2026-03-07",
      to: "2026-03-11",
    });
  });

  it("counts from the Indian date even when it is still the day before in UTC", () => {
    // 1 March 23:00 UTC is 2 March 04:30 in India
    expect(estimateDelivery(new Date("2026-03-01T23:00:00Z"))).toEqual(
      estimateDelivery(new Date("2026-03-02T12:00:00Z")),
    );
  });

  it("moves a Sunday to the Monday", () => {
    // Tuesday 3 March: +5 = Sunday 8 March -> Monday 9 March
    expect(estimateDelivery(new Date("2026-03-03T06:00:00Z")).from).toBe("2026-03-09");
  });

  it("reads as a range of days", () => {
    expect(formatEstimate({ from: "2026-03-07", to: "2026-03-11" })).toBe("Sat, 7 Mar – Wed, 11 Mar");
  });
});
