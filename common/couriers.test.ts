import { describe, expect, it } from "vitest";
import { COURIERS, isKnownTrackingUrl, trackingUrl } from "./couriers.ts";

describe("trackingUrl", () => {
  it("builds each listed courier's page from the tracking number", () => {
    expect(trackingUrl("Delhivery", "1234567890")).toBe("https://www.delhivery.com/track/package/1234567890");
    expect(trackingUrl("Blue Dart", "BD-77812")).toBe(
      "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo=BD-77812",
    );
    expect(trackingUrl("DTDC", "D1234")).toContain("strCnno=D1234");
    expect(trackingUrl("Ekart", "FMPC1234")).toBe("https://ekartlogistics.com/shipmenttrack/FMPC1234");
    expect(trackingUrl("Xpressbees", "XB9999")).toContain("awbNo=XB9999");
    expect(trackingUrl("India Post", "EE123456789IN")).toMatch(/^https:\/\/www\.indiapost\.gov\.in\//);
  });

  it("gives every listed courier but Other an https page", () => {
    for (const courier of COURIERS.filter((name) => name !== "Other")) {
      expect(trackingUrl(courier, "AB12")).toMatch(/^https:\/\//);
    }
  });

  it("uses the address staff gave for Other, only when it is https on a known tracking site", () => {
    expect(trackingUrl("Other", "AB12", "https://tracker.shadowfax.in/AB12")).toBe(
      "https://tracker.shadowfax.in/AB12",
    );
    // Any https address was shown before: a look-alike page asking the shopper to "pay the duty" was one link away.
    expect(trackingUrl("Other", "AB12", "https://track.example.in/AB12")).toBeNull();
    expect(trackingUrl("Other", "AB12", "javascript:alert(1)")).toBeNull();
    expect(trackingUrl("Other", "AB12", "http://tracker.shadowfax.in/AB12")).toBeNull();
    expect(trackingUrl("Other", "AB12")).toBeNull();
  });

  it("knows a tracking site by its host alone, not by a look-alike name, user name or port", () => {
    expect(isKnownTrackingUrl("https://shadowfax.in/track?id=1")).toBe(true);
    expect(isKnownTrackingUrl("https://www.ECOMEXPRESS.in/tracking/")).toBe(true);
    expect(isKnownTrackingUrl("https://shadowfax.in.example.com/track")).toBe(false);
    expect(isKnownTrackingUrl("https://notshadowfax.in/track")).toBe(false);
    expect(isKnownTrackingUrl("https://shadowfax.in@example.com/track")).toBe(false);
    expect(isKnownTrackingUrl("https://user@shadowfax.in/track")).toBe(false);
    expect(isKnownTrackingUrl("https://shadowfax.in:8443/track")).toBe(false);
    expect(isKnownTrackingUrl("not a url")).toBe(false);
  });

  it("gives no link without a courier or number, or for a number no listed courier issues", () => {
    expect(trackingUrl(null, "AB12")).toBeNull();
    expect(trackingUrl("Delhivery", null)).toBeNull();
    expect(trackingUrl("Delhivery", "12 34/../x")).toBeNull();
    expect(trackingUrl("Shadowfax", "AB12")).toBeNull();
  });
});
