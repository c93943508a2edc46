import { describe, expect, it } from "vitest";
import type { CodRules } from "./cod-rules.ts";
import { checkDelivery, type PinPlace, ruleForPin } from "./delivery-check.ts";

const CHENNAI: PinPlace = {
  pin: "600020",
  city: "Chennai",
  district: "Chennai",
  state: "Tamil Nadu",
  states: ["Tamil Nadu"],
};
const COD: CodRules = {
  enabled: true,
  maxOrderPaise: 500_000,
  firstOrderMaxPaise: 100_000,
  prepaidOnlyAfterRtos: 1,
  places: [{ kind: "district", value: "Chennai", maxPaise: 300_000, note: "" }],
};
// A PIN rule with cash off, named to the shopper by the PIN typed rather than the owner's prefix.
const PIN_NO_COD = { kind: "pin" as const, value: "6000", maxPaise: null, note: "" };
// Tuesday 24 November 2026, 10:00 in India.
const NOW = new Date("2026-11-24T04:30:00Z");

describe("ruleForPin", () => {
  it("lets the longest matching prefix decide, so a PIN can be an exception to its range", () => {
    const rules = [
      { prefix: "6", rule: "served" },
      { prefix: "600", rule: "not_served" },
      { prefix: "600020", rule: "served" },
    ];
    expect(ruleForPin("600020", rules)?.rule).toBe("served");
    expect(ruleForPin("600017", rules)?.rule).toBe("not_served");
    expect(ruleForPin("641001", rules)?.prefix).toBe("6");
    expect(ruleForPin("110001", rules)).toBeNull();
  });
});

describe("checkDelivery and the COD rules", () => {
  it("names the reason cash cannot be taken by the owner's rules, leaving the customer's own to the order", () => {
    const cod = (totalPaise: number, rules: CodRules = COD) =>
      checkDelivery({ place: CHENNAI, rule: null, codRules: rules, totalPaise, now: NOW }).cod;
    const noCodHere = { ...COD, places: [...COD.places, PIN_NO_COD] };
    // Above the first-order cap, but nobody is known on a product page.
    expect(cod(200_000)).toEqual({ available: true, reason: null });
    expect(cod(100_000, { ...noCodHere, enabled: false }).reason).toBe(
      "Cash on delivery is not available at the moment.",
    );
    expect(cod(100_000, noCodHere).reason).toBe("Cash on delivery is not available for PIN code 600020.");
    expect(cod(300_001).reason).toBe(
      "Cash on delivery for Chennai district is available for orders up to ₹3,000.",
    );
    expect(cod(500_001, { ...COD, places: [] }).reason).toBe(
      "Cash on delivery is available for orders up to ₹5,000.",
    );
  });
});

describe("checkDelivery", () => {
  it("answers in the issue's words, the last day of the checkout's estimate in India time", () => {
    const answer = checkDelivery({ place: CHENNAI, rule: null, codRules: COD, totalPaise: 49_900, now: NOW });
    // Ordered Tuesday: 3-5 days to hand over and 2-4 in transit (no Sunday deliveries), so by Thursday 3 December.
    expect(answer.message).toBe("Delivers to Chennai, Tamil Nadu by Thu, 3 Dec; cash on delivery available");
    expect(answer.estimate).toEqual({ from: "2026-11-30", to: "2026-12-03" });
  });

  it("says when the PIN is not served, or takes no cash", () => {
    expect(
      checkDelivery({ place: CHENNAI, rule: { rule: "not_served" }, codRules: COD, totalPaise: 0, now: NOW }),
    ).toMatchObject({
      served: false,
      estimate: null,
      message: "Sorry, we do not deliver to PIN code 600020 (Chennai, Tamil Nadu) yet.",
    });
    const codRules = { ...COD, places: [PIN_NO_COD] };
    expect(
      checkDelivery({ place: CHENNAI, rule: { rule: "served" }, codRules, totalPaise: 0, now: NOW }).message,
    ).toBe("Delivers to Chennai, Tamil Nadu by Thu, 3 Dec; cash on delivery not available for this PIN code");
  });

  it("says where or above what the owner's COD rules take no cash", () => {
    const line = (places: CodRules["places"], totalPaise: number) =>
      checkDelivery({ place: CHENNAI, rule: null, codRules: { ...COD, places }, totalPaise, now: NOW })
        .message;
    const chennai = { kind: "district" as const, value: "Chennai", note: "" };
    expect(line([{ ...chennai, maxPaise: null }], 49_900)).toBe(
      "Delivers to Chennai, Tamil Nadu by Thu, 3 Dec; cash on delivery not available for Chennai district",
    );
    expect(line([{ ...chennai, maxPaise: 100_000 }], 150_000)).toBe(
      "Delivers to Chennai, Tamil Nadu by Thu, 3 Dec; cash on delivery not available above ₹1,000",
    );
  });
});
