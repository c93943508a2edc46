import { describe, expect, it } from "vitest";
import { GST_STATE_CODES, gstinCheckCharacter, gstinProblem } from "./gstin.ts";
import { INDIAN_STATE_NAMES } from "./india.ts";

// Published GSTINs: the sample of GSTN's own API documentation (Maharashtra) and one of Karnataka.
const VALID = ["27AAPFU0939F1ZV", "29AAGCB7383J1Z4"];

describe("the GSTIN check character", () => {
  it("is the last character of real GSTINs", () => {
    for (const gstin of VALID) {
      expect(gstinCheckCharacter(gstin.slice(0, 14)), gstin).toBe(gstin.charAt(14));
      expect(gstinProblem(gstin), gstin).toBeUndefined();
    }
  });

  it("catches any one mistyped character and two neighbours swapped", () => {
    const gstin = "27AAPFU0939F1ZV";
    expect(gstinProblem("27AAPFU0939F1ZW")).toMatch(/check character/);
    // One digit of the PAN mistyped, and two of its digits swapped: the check character no longer fits.
    expect(gstinProblem("27AAPFU0938F1ZV")).toMatch(/check character/);
    expect(gstinProblem("27AAPFU0993F1ZV")).toMatch(/check character/);
    for (let index = 2; index < 14; index++) {
      const original = gstin.charAt(index);
      const other = /[0-9]/.test(original)
        ? String((Number(original) + 1) % 10)
        : original === "Z"
          ? "Y"
          : "Z";
      const typo = gstin.slice(0, index) + other + gstin.slice(index + 1);
      expect(gstinProblem(typo), typo).toBeDefined();
    }
  });

  it("refuses the wrong length and the wrong shape before the check", () => {
    expect(gstinProblem("27AAPFU0939F1Z")).toBe("A GSTIN has 15 characters (this has 14).");
    expect(gstinProblem("27AAPFU0939F1ZVX")).toMatch(/15 characters/);
    // A PAN with a digit where a letter goes, a registration number 0, no Z in 14th place.
    expect(gstinProblem("27AAPF10939F1ZV")).toMatch(/not a GSTIN/);
    expect(gstinProblem("27AAPFU0939F0ZV")).toMatch(/not a GSTIN/);
    expect(gstinProblem("27AAPFU0939F1XV")).toMatch(/not a GSTIN/);
    expect(gstinProblem("27aapfu0939f1zv")).toMatch(/not a GSTIN/);
  });

  it("must be registered in the shop's state", () => {
    expect(gstinProblem("27AAPFU0939F1ZV", "Maharashtra")).toBeUndefined();
    expect(gstinProblem("29AAGCB7383J1Z4", "Karnataka")).toBeUndefined();
    expect(gstinProblem("27AAPFU0939F1ZV", "Karnataka")).toBe(
      "This GSTIN is registered in state code 27, not Karnataka (29).",
    );
  });

  it("knows a distinct code for every state and union territory", () => {
    const codes = INDIAN_STATE_NAMES.map((state) => GST_STATE_CODES[state]);
    expect(codes.every((code) => /^[0-9]{2}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBe(INDIAN_STATE_NAMES.length);
    expect(GST_STATE_CODES["Tamil Nadu"]).toBe("33");
    expect(GST_STATE_CODES.Telangana).toBe("36");
  });
});
