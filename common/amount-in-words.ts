import type { Paise } from "./money.ts";

const ONES = [
  "",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** 0-99 in words: "ninety-nine". */
function belowHundred(value: number): string {
  if (value < 20) return ONES[value] ?? "";
  const ones = value % 10;
  return `${TENS[Math.floor(value / 10)]}${ones ? `-${ONES[ones]}` : ""}`;
}

/** 0-999 in words: "one hundred ninety-nine". */
function belowThousand(value: number): string {
  const hundreds = Math.floor(value / 100);
  const rest = value % 100;
  return [hundreds ? `${ONES[hundreds]} hundred` : "", rest ? belowHundred(rest) : ""]
    .filter(Boolean)
    .join(" ");
}

/**
 * A whole number in words with the Indian grouping: crore, lakh, thousand ("one lakh twenty thousand").
 * Above 99 crore the crores are themselves counted the same way ("one hundred crore").
 */
export function numberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Cannot spell ${value}.`);
  if (value === 0) return "zero";
  const crore = Math.floor(value / 10_000_000);
  const lakh = Math.floor((value % 10_000_000) / 100_000);
  const thousand = Math.floor((value % 100_000) / 1000);
  const rest = value % 1000;
  return [
    crore ? `${numberInWords(crore)} crore` : "",
    lakh ? `${belowHundred(lakh)} lakh` : "",
    thousand ? `${belowHundred(thousand)} thousand` : "",
    rest ? belowThousand(rest) : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** "One thousand one hundred ninety-nine rupees only"; "... rupees and fifty paise only". */
export function amountInWords(paise: Paise): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const words = [
    `${numberInWords(rupees)} ${rupees === 1 ? "rupee" : "rupees"}`,
    rest ? `and ${belowHundred(rest)} ${rest === 1 ? "paisa" : "paise"}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} only`;
}
