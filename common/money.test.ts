import { describe, expect, it } from "vitest";
import { formatRupees, rupeesToPaise, typedRupeesAsPaise } from "./money.ts";

describe("money", () => {
  it("formats whole rupees with Indian digit grouping and no decimals", () => {
    expect(formatRupees(119900)).toBe("₹1,199");
    expect(formatRupees(12345600)).toBe("₹1,23,456");
    expect(formatRupees(0)).toBe("₹0");
  });

  it("shows paise only when there are some", () => {
    expect(formatRupees(119950)).toBe("₹1,199.50");
  });

  it("converts rupees to integer paise without float drift", () => {
    expect(rupeesToPaise(4.99)).toBe(499);
    expect(rupeesToPaise(1199)).toBe(119900);
  });

  it("turns rupees typed in a form into paise, leaving what is not whole paise for the server to name", () => {
    expect(typedRupeesAsPaise(" 1,199.50 ")).toBe(119_950);
    expect(typedRupeesAsPaise("0.1")).toBe(10);
    expect(typedRupeesAsPaise("12.345")).toBeCloseTo(1234.5);
    expect(typedRupeesAsPaise("twelve")).toBe("twelve");
    expect(typedRupeesAsPaise("")).toBeNull();
  });
});
