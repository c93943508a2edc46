import { describe, expect, it } from "vitest";
import { formatPickupDay, scanHeadline } from "./shipping.ts";

describe("the parcel journey's words", () => {
  it("names a scan by the shop's word for its status", () => {
    expect(scanHeadline({ label: "RTO IN TRANSIT", status: "rto_initiated", activity: "" })).toBe(
      "Returning to us",
    );
  });

  it("names the aggregator's own steps in the shop's words, never its capitals", () => {
    expect(scanHeadline({ label: "MANIFEST GENERATED", status: null, activity: "" })).toBe(
      "Ready for the courier to collect",
    );
    expect(scanHeadline({ label: "awb_assigned", status: null, activity: "" })).toBe("Courier assigned");
    expect(scanHeadline({ label: "SOME NEW STEP", status: null, activity: "" })).toBe("Some new step");
    expect(scanHeadline({ label: "", status: null, activity: "Bag received" })).toBe("Bag received");
  });

  it("writes the pickup day as the shop writes dates, not as ISO", () => {
    expect(formatPickupDay("2026-11-27 10:00:00")).toBe("27 Nov 2026");
    expect(formatPickupDay("2026-11-27")).toBe("27 Nov 2026");
    expect(formatPickupDay("tomorrow")).toBe("tomorrow");
  });
});
