import { describe, expect, it } from "vitest";
import { amountInWords, numberInWords } from "./amount-in-words.ts";

describe("amount in words, Indian numbering", () => {
  it("spells the issue's example and the shop's usual totals", () => {
    expect(amountInWords(119_900)).toBe("One thousand one hundred ninety-nine rupees only");
    expect(amountInWords(4_900)).toBe("Forty-nine rupees only");
    expect(amountInWords(100)).toBe("One rupee only");
    expect(amountInWords(0)).toBe("Zero rupees only");
  });

  it("names paise after the rupees", () => {
    expect(amountInWords(119_950)).toBe("One thousand one hundred ninety-nine rupees and fifty paise only");
    expect(amountInWords(1)).toBe("Zero rupees and one paisa only");
  });

  it("groups by thousand, lakh and crore", () => {
    expect(numberInWords(100_000)).toBe("one lakh");
    expect(numberInWords(120_000)).toBe("one lakh twenty thousand");
    expect(numberInWords(9_999_999)).toBe("ninety-nine lakh ninety-nine thousand nine hundred ninety-nine");
    expect(numberInWords(12_34_56_789)).toBe(
      "twelve crore thirty-four lakh fifty-six thousand seven hundred eighty-nine",
    );
    expect(numberInWords(1_00_00_00_000)).toBe("one hundred crore");
    expect(numberInWords(1_005)).toBe("one thousand five");
  });
});
