import { describe, expect, it } from "vitest";
import {
  formatMobile,
  INDIAN_STATE_NAMES,
  INDIAN_STATES,
  isIndianState,
  normalizeMobile,
  pinMatchesState,
} from "./india.ts";

describe("states and union territories", () => {
  it("lists all 28 states and 8 union territories once each", () => {
    expect(INDIAN_STATES.filter((entry) => entry.kind === "state")).toHaveLength(28);
    expect(INDIAN_STATES.filter((entry) => entry.kind === "ut")).toHaveLength(8);
    expect(new Set(INDIAN_STATE_NAMES).size).toBe(36);
    expect(isIndianState("Tamil Nadu")).toBe(true);
    expect(isIndianState("Madras")).toBe(false);
  });

  it("gives every one of them at least one PIN prefix, none in the 9x army range", () => {
    for (const entry of INDIAN_STATES) {
      expect(entry.pinPrefixes.length).toBeGreaterThan(0);
      for (const prefix of entry.pinPrefixes) expect(prefix).toMatch(/^[1-8][0-9]{1,2}$/);
    }
  });
});

describe("the PIN agrees with the state", () => {
  it.each([
    ["110001", "Delhi"],
    ["400001", "Maharashtra"],
    ["403001", "Goa"],
    ["560001", "Karnataka"],
    ["600001", "Tamil Nadu"],
    ["605001", "Puducherry"],
    ["682001", "Kerala"],
    ["682555", "Lakshadweep"],
    ["700001", "West Bengal"],
    ["737101", "Sikkim"],
    ["744101", "Andaman and Nicobar Islands"],
    ["781001", "Assam"],
    ["795001", "Manipur"],
    ["500001", "Telangana"],
    ["520001", "Andhra Pradesh"],
    ["160017", "Chandigarh"],
    ["248001", "Uttarakhand"],
    ["226001", "Uttar Pradesh"],
    ["834001", "Jharkhand"],
    ["800001", "Bihar"],
    ["190001", "Jammu and Kashmir"],
    ["194101", "Ladakh"],
    ["396210", "Dadra and Nagar Haveli and Daman and Diu"],
    ["492001", "Chhattisgarh"],
    ["302001", "Rajasthan"],
  ])("accepts %s in %s", (pin, state) => {
    expect(pinMatchesState(pin, state)).toBe(true);
  });

  it.each([
    ["400001", "Tamil Nadu"],
    ["110001", "Haryana"],
    ["600001", "Kerala"],
    ["403001", "Karnataka"],
    ["560001", "Telangana"],
  ])("refuses %s in %s", (pin, state) => {
    expect(pinMatchesState(pin, state)).toBe(false);
  });

  it("refuses malformed PINs and unknown states", () => {
    expect(pinMatchesState("011001", "Delhi")).toBe(false);
    expect(pinMatchesState("11001", "Delhi")).toBe(false);
    expect(pinMatchesState("1100011", "Delhi")).toBe(false);
    expect(pinMatchesState("11000a", "Delhi")).toBe(false);
    expect(pinMatchesState("110001", "Madras")).toBe(false);
    expect(pinMatchesState("900001", "Delhi")).toBe(false);
  });
});

describe("mobile numbers", () => {
  it("keeps the 10 digits of what people type", () => {
    expect(normalizeMobile("98765 43210")).toBe("9876543210");
    expect(normalizeMobile("+91 98765-43210")).toBe("9876543210");
    expect(normalizeMobile("919876543210")).toBe("9876543210");
    expect(normalizeMobile("09876543210")).toBe("9876543210");
    expect(normalizeMobile("6000000000")).toBe("6000000000");
  });

  it("refuses landlines, short numbers and letters", () => {
    expect(normalizeMobile("5876543210")).toBeNull();
    expect(normalizeMobile("987654321")).toBeNull();
    expect(normalizeMobile("98765432100")).toBeNull();
    expect(normalizeMobile("98765abcde")).toBeNull();
    expect(normalizeMobile("")).toBeNull();
  });

  it("reads out as 5 + 5 digits", () => {
    expect(formatMobile("9876543210")).toBe("98765 43210");
  });
});
