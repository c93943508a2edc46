import { describe, expect, it } from "vitest";
import {
  appliedMessage,
  checkDiscountCode,
  DISCOUNT_MESSAGES,
  type DiscountCode,
  discountAmount,
  normalizeCode,
  shortfallForCode,
  UNLIMITED,
  usedUpMessage,
} from "./discount.ts";

const GLOW20: DiscountCode = {
  code: "GLOW20",
  percent: 20,
  description: "Flat 20% off",
  active: true,
  minAmountPaise: 0,
  amountOffPaise: 0,
  ...UNLIMITED,
};
const WELCOME10: DiscountCode = {
  code: "WELCOME10",
  percent: 10,
  description: "10% off",
  active: true,
  minAmountPaise: 50000,
  amountOffPaise: 0,
  ...UNLIMITED,
};
const OLD5: DiscountCode = {
  code: "OLD5",
  percent: 5,
  description: "Old",
  active: false,
  minAmountPaise: 0,
  amountOffPaise: 0,
  ...UNLIMITED,
};
const known = [GLOW20, WELCOME10, OLD5];

describe("checking a code", () => {
  it("is case-insensitive and ignores surrounding spaces", () => {
    expect(normalizeCode("  glow20 ")).toBe("GLOW20");
    expect(checkDiscountCode("Glow20", known, [])).toEqual({ ok: true, code: GLOW20 });
  });

  it("calls unknown and inactive codes invalid, in the spec's words", () => {
    expect(checkDiscountCode("FREE100", known, [])).toEqual({ ok: false, message: "Invalid discount code" });
    expect(checkDiscountCode("old5", known, [])).toEqual({ ok: false, message: DISCOUNT_MESSAGES.invalid });
  });

  it("refuses a code already used, whatever its case in the used list", () => {
    expect(checkDiscountCode("GLOW20", known, ["glow20"])).toEqual({
      ok: false,
      message: "This discount code has already been used",
      usedUp: true,
    });
  });

  it("leaves a code of several uses per customer to the server's count, not the browser's used list", () => {
    const twice = { ...GLOW20, code: "TWICE", usesPerCustomer: 2 };
    expect(checkDiscountCode("twice", [twice], ["TWICE"])).toEqual({ ok: true, code: twice });
  });

  it("words the per-customer refusal with the spec's message for one use and the count for more", () => {
    expect(usedUpMessage(1)).toBe("This discount code has already been used");
    expect(usedUpMessage(2)).toBe("This code can be used 2 times per customer, and you have used it 2 times");
  });

  it("says invalid before already-used for an inactive code in the used list", () => {
    expect(checkDiscountCode("OLD5", known, ["OLD5"])).toEqual({
      ok: false,
      message: DISCOUNT_MESSAGES.invalid,
    });
  });

  it("words success as the description followed by ' applied successfully!'", () => {
    expect(appliedMessage("Flat 20% off all products")).toBe(
      "Flat 20% off all products applied successfully!",
    );
  });
});

describe("the discount amount", () => {
  it("is percent of the amount rounded to the nearest whole rupee", () => {
    expect(discountAmount(119900, GLOW20)).toBe(24000); // 239.80 -> 240
    expect(discountAmount(47500, GLOW20)).toBe(9500);
    expect(discountAmount(45200, GLOW20)).toBe(9000); // 90.40 -> 90
    expect(discountAmount(112500, WELCOME10)).toBe(11300); // 112.50 -> 113
  });

  it("is zero below the minimum and applies from the minimum itself", () => {
    expect(discountAmount(49900, WELCOME10)).toBe(0);
    expect(discountAmount(50000, WELCOME10)).toBe(5000);
  });

  it("tells how much more to add to reach the minimum", () => {
    expect(shortfallForCode(39900, WELCOME10)).toBe(10100);
    expect(shortfallForCode(60000, WELCOME10)).toBe(0);
  });
});
