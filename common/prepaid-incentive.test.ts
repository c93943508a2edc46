import { describe, expect, it } from "vitest";
import {
  describePrepaidIncentive,
  prepaidDiscountOn,
  prepaidIncentiveSchema,
  prepaidOffer,
} from "./prepaid-incentive.ts";

describe("the prepaid incentive", () => {
  it("rounds a percentage to the nearest rupee, then applies the cap", () => {
    expect(prepaidDiscountOn(71900, { kind: "percent", percent: 5, capPaise: null })).toBe(3600);
    expect(prepaidDiscountOn(71000, { kind: "percent", percent: 5, capPaise: null })).toBe(3600);
    expect(prepaidDiscountOn(500000, { kind: "percent", percent: 5, capPaise: 10000 })).toBe(10000);
    expect(prepaidDiscountOn(0, { kind: "flat", amountPaise: 5000 })).toBe(0);
    expect(prepaidDiscountOn(80000, { kind: "free_shipping" })).toBe(0);
  });

  it("is described for the owner and offered to the shopper in rupees", () => {
    expect(describePrepaidIncentive({ kind: "percent", percent: 5, capPaise: 10000 })).toBe(
      "5% off for paying online, at most ₹100",
    );
    expect(prepaidOffer({ kind: "flat", amountPaise: 5000 }, 5000)).toBe("Save ₹50 when you pay online.");
    expect(prepaidOffer({ kind: "free_shipping" }, 7900)).toBe(
      "Free shipping when you pay online: save ₹79.",
    );
    expect(prepaidOffer({ kind: "free_shipping" }, 0)).toBeNull();
  });

  it("takes only the fields of its kind, with amounts in whole paise", () => {
    expect(prepaidIncentiveSchema.safeParse({ kind: "percent", percent: 5, capPaise: null }).success).toBe(
      true,
    );
    expect(prepaidIncentiveSchema.safeParse({ kind: "flat", amountPaise: 5000, percent: 5 }).success).toBe(
      false,
    );
    expect(prepaidIncentiveSchema.safeParse({ kind: "percent", percent: 80, capPaise: null }).success).toBe(
      false,
    );
    expect(prepaidIncentiveSchema.safeParse({ kind: "flat", amountPaise: 49.5 }).success).toBe(false);
    expect(prepaidIncentiveSchema.safeParse({ kind: "cashback" }).success).toBe(false);
  });
});
