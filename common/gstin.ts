import type { IndianState } from "./india.ts";

/**
 * The GST state code of each state and union territory: the first two characters of a GSTIN and the code
 * an invoice names with the place of supply. Andhra Pradesh is 37 since its division (28 was the old
 * state); Dadra and Nagar Haveli and Daman and Diu share 26 since their merger in 2020.
 */
export const GST_STATE_CODES: Record<IndianState, string> = {
  "Jammu and Kashmir": "01",
  "Himachal Pradesh": "02",
  Punjab: "03",
  Chandigarh: "04",
  Uttarakhand: "05",
  Haryana: "06",
  Delhi: "07",
  Rajasthan: "08",
  "Uttar Pradesh": "09",
  Bihar: "10",
  Sikkim: "11",
  "Arunachal Pradesh": "12",
  Nagaland: "13",
  Manipur: "14",
  Mizoram: "15",
  Tripura: "16",
  Meghalaya: "17",
  Assam: "18",
  "West Bengal": "19",
  Jharkhand: "20",
  Odisha: "21",
  Chhattisgarh: "22",
  "Madhya Pradesh": "23",
  Gujarat: "24",
  "Dadra and Nagar Haveli and Daman and Diu": "26",
  Maharashtra: "27",
  Karnataka: "29",
  Goa: "30",
  Lakshadweep: "31",
  Kerala: "32",
  "Tamil Nadu": "33",
  Puducherry: "34",
  "Andaman and Nicobar Islands": "35",
  Telangana: "36",
  "Andhra Pradesh": "37",
  Ladakh: "38",
};

/**
 * A GSTIN: the state code, the holder's PAN (five letters, four digits, a letter), the registration's
 * number under that PAN (1-9, then A-Z), the letter Z, and a check character.
 */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The check character of a GSTIN's first 14 characters (GSTN's mod-36 scheme, a Luhn mod N): each
 * character's value is multiplied by 1 and 2 in turn, the product's base-36 digits are added, and the
 * check character is what brings the sum to a multiple of 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index++) {
    const value = ALPHABET.indexOf(first14.charAt(index));
    if (value < 0) throw new Error(`Not a GSTIN character: ${first14.charAt(index)}`);
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET.charAt((36 - (sum % 36)) % 36);
}

/**
 * What is wrong with a GSTIN (already upper-cased), as a sentence the owner can act on, or undefined when
 * it is well formed, its check character is right and, when a state is given, it is registered there.
 */
export function gstinProblem(gstin: string, state?: IndianState): string | undefined {
  if (gstin.length !== 15) return `A GSTIN has 15 characters (this has ${gstin.length}).`;
  if (!GSTIN_PATTERN.test(gstin)) {
    return "This is not a GSTIN: 2 digits of the state, the 10-character PAN, 1 digit or letter, Z, and a check character.";
  }
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin.charAt(14)) {
    return "This GSTIN's check character is wrong: please check it for a mistyped character.";
  }
  if (state && gstin.slice(0, 2) !== GST_STATE_CODES[state]) {
    return `This GSTIN is registered in state code ${gstin.slice(0, 2)}, not ${state} (${GST_STATE_CODES[state]}).`;
  }
  return undefined;
}

/** FSSAI licence and registration numbers are 14 digits. */
export const FSSAI_PATTERN = /^[0-9]{14}$/;
