import { describe, expect, it } from "vitest";
import { type CodFacts, type CodRules, codPlaceRuleSchema, evaluateCod } from "./cod-rules.ts";

const RULES: CodRules = {
  enabled: true,
  maxOrderPaise: 500_000,
  firstOrderMaxPaise: 150_000,
  prepaidOnlyAfterRtos: 2,
  places: [
    { kind: "pin", value: "80", maxPaise: 200_000, note: "" },
    { kind: "pin", value: "800001", maxPaise: null, note: "Returns" },
    { kind: "district", value: "Vadodara", maxPaise: 300_000, note: "" },
    { kind: "state", value: "Bihar", maxPaise: 250_000, note: "" },
  ],
};

const FACTS: CodFacts = {
  totalPaise: 100_000,
  pin: "600020",
  district: "Chennai",
  state: "Tamil Nadu",
  earlierDelivered: 3,
  earlierRtos: 0,
};

const reasonOf = (rules: CodRules, facts: Partial<CodFacts>) => {
  const decision = evaluateCod(rules, { ...FACTS, ...facts });
  return decision.available ? null : decision.reason;
};

describe("evaluateCod", () => {
  it("offers cash on delivery when no rule stands in the way", () => {
    expect(evaluateCod(RULES, FACTS)).toEqual({ available: true });
  });

  it("refuses everything when switched off, and names the shopper's PIN for a PIN prefix with COD off", () => {
    expect(reasonOf({ ...RULES, enabled: false }, {})).toBe(
      "Cash on delivery is not available at the moment.",
    );
    const noCod6000 = {
      ...RULES,
      places: [...RULES.places, { kind: "pin" as const, value: "6000", maxPaise: null, note: "" }],
    };
    expect(evaluateCod(noCod6000, FACTS)).toEqual({
      available: false,
      rule: "pin_no_cod",
      reason: "Cash on delivery is not available for PIN code 600020.",
      maxPaise: null,
      where: "this PIN code",
    });
  });

  it("lets the longest PIN prefix decide, so one PIN can be stricter than its range", () => {
    expect(reasonOf(RULES, { pin: "800001", district: "Patna", state: "Bihar" })).toBe(
      "Cash on delivery is not available for PIN code 800001.",
    );
    expect(reasonOf(RULES, { pin: "800002", district: "Patna", state: "Bihar", totalPaise: 200_000 })).toBe(
      null,
    );
    expect(reasonOf(RULES, { pin: "800002", district: "Patna", state: "Bihar", totalPaise: 200_100 })).toBe(
      "Cash on delivery for PIN codes starting 80 is available for orders up to ₹2,000.",
    );
  });

  it("applies the smallest cap the total exceeds: district, state, the shop's, the first order's", () => {
    expect(reasonOf(RULES, { district: "vadodara", state: "Gujarat", totalPaise: 300_001 })).toBe(
      "Cash on delivery for Vadodara district is available for orders up to ₹3,000.",
    );
    expect(reasonOf(RULES, { pin: "841301", district: "Saran", state: "Bihar", totalPaise: 260_000 })).toBe(
      "Cash on delivery for Bihar is available for orders up to ₹2,500.",
    );
    expect(reasonOf(RULES, { totalPaise: 500_001 })).toBe(
      "Cash on delivery is available for orders up to ₹5,000.",
    );
    expect(reasonOf(RULES, { totalPaise: 150_001, earlierDelivered: 0 })).toMatch(
      /^Cash on delivery is available for a first order up to ₹1,500\./,
    );
    expect(reasonOf(RULES, { totalPaise: 150_000, earlierDelivered: 0 })).toBe(null);
    // Nobody known yet (a product page's check): the customer's own caps are not guessed.
    expect(reasonOf(RULES, { totalPaise: 150_001, earlierDelivered: null, earlierRtos: null })).toBe(null);
  });

  it("asks a customer with the set number of returns to origin to pay online", () => {
    expect(reasonOf(RULES, { earlierRtos: 1 })).toBe(null);
    expect(reasonOf(RULES, { earlierRtos: 2 })).toMatch(
      /came back undelivered, so this order needs to be paid online/,
    );
    expect(reasonOf({ ...RULES, prepaidOnlyAfterRtos: null }, { earlierRtos: 9 })).toBe(null);
  });

  it("has a null cap mean no separate first-order limit", () => {
    expect(
      reasonOf({ ...RULES, firstOrderMaxPaise: null }, { totalPaise: 400_000, earlierDelivered: 0 }),
    ).toBe(null);
  });
});

describe("codPlaceRuleSchema", () => {
  it("takes PIN prefixes, districts and known states only", () => {
    expect(codPlaceRuleSchema.safeParse({ kind: "pin", value: "80", maxPaise: null }).success).toBe(true);
    expect(codPlaceRuleSchema.safeParse({ kind: "pin", value: "08", maxPaise: null }).success).toBe(false);
    expect(codPlaceRuleSchema.safeParse({ kind: "state", value: "Bihar", maxPaise: 100 }).success).toBe(true);
    expect(codPlaceRuleSchema.safeParse({ kind: "state", value: "Atlantis", maxPaise: 100 }).success).toBe(
      false,
    );
    expect(codPlaceRuleSchema.safeParse({ kind: "district", value: "Patna", maxPaise: -1 }).success).toBe(
      false,
    );
    expect(
      codPlaceRuleSchema.safeParse({ kind: "district", value: "Patna", maxPaise: 1, x: 1 }).success,
    ).toBe(false);
  });
});
