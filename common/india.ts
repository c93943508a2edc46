/**
 * India's 28 states and 8 union territories, and the PIN-code prefixes each is served by.
 *
 * A PIN's first digit is the postal region, the first two digits the sub-region (usually a
 * postal circle, i.e. a state), the third the sorting district. Most states own whole two-digit
 * prefixes; small states and union territories own three-digit ones inside a neighbour's range
 * (Goa 403 inside Maharashtra's 40-44, Chandigarh 160 inside Punjab's 14-16). Where districts sit
 * on both sides of a border (Bihar and Jharkhand, Uttar Pradesh and Uttarakhand) both states list
 * the shared prefix, so the rule catches a wrong state or a mistyped PIN without refusing a real
 * address. 9x PINs are the Army and Field Post Offices and belong to no state.
 */
export const INDIAN_STATES = [
  { name: "Andaman and Nicobar Islands", kind: "ut", pinPrefixes: ["744"] },
  { name: "Andhra Pradesh", kind: "state", pinPrefixes: ["507", "51", "52", "53"] },
  { name: "Arunachal Pradesh", kind: "state", pinPrefixes: ["790", "791", "792"] },
  { name: "Assam", kind: "state", pinPrefixes: ["78"] },
  { name: "Bihar", kind: "state", pinPrefixes: ["80", "81", "82", "83", "84", "85"] },
  { name: "Chandigarh", kind: "ut", pinPrefixes: ["160"] },
  { name: "Chhattisgarh", kind: "state", pinPrefixes: ["49"] },
  {
    name: "Dadra and Nagar Haveli and Daman and Diu",
    kind: "ut",
    pinPrefixes: ["362", "396"],
  },
  { name: "Delhi", kind: "ut", pinPrefixes: ["11"] },
  { name: "Goa", kind: "state", pinPrefixes: ["403"] },
  { name: "Gujarat", kind: "state", pinPrefixes: ["36", "37", "38", "39"] },
  { name: "Haryana", kind: "state", pinPrefixes: ["12", "13"] },
  { name: "Himachal Pradesh", kind: "state", pinPrefixes: ["17"] },
  { name: "Jammu and Kashmir", kind: "ut", pinPrefixes: ["18", "19"] },
  { name: "Jharkhand", kind: "state", pinPrefixes: ["81", "82", "83"] },
  { name: "Karnataka", kind: "state", pinPrefixes: ["56", "57", "58", "59"] },
  { name: "Kerala", kind: "state", pinPrefixes: ["67", "68", "69"] },
  { name: "Ladakh", kind: "ut", pinPrefixes: ["194"] },
  { name: "Lakshadweep", kind: "ut", pinPrefixes: ["682"] },
  { name: "Madhya Pradesh", kind: "state", pinPrefixes: ["45", "46", "47", "48"] },
  { name: "Maharashtra", kind: "state", pinPrefixes: ["40", "41", "42", "43", "44"] },
  { name: "Manipur", kind: "state", pinPrefixes: ["795"] },
  { name: "Meghalaya", kind: "state", pinPrefixes: ["793", "794"] },
  { name: "Mizoram", kind: "state", pinPrefixes: ["796"] },
  { name: "Nagaland", kind: "state", pinPrefixes: ["797", "798"] },
  { name: "Odisha", kind: "state", pinPrefixes: ["75", "76", "77"] },
  // Puducherry's four districts lie in three states: Puducherry and Karaikal (TN), Mahe (Kerala), Yanam (AP).
  { name: "Puducherry", kind: "ut", pinPrefixes: ["605", "609", "673", "533"] },
  { name: "Punjab", kind: "state", pinPrefixes: ["14", "15", "16"] },
  { name: "Rajasthan", kind: "state", pinPrefixes: ["30", "31", "32", "33", "34"] },
  { name: "Sikkim", kind: "state", pinPrefixes: ["737"] },
  { name: "Tamil Nadu", kind: "state", pinPrefixes: ["60", "61", "62", "63", "64"] },
  { name: "Telangana", kind: "state", pinPrefixes: ["50"] },
  { name: "Tripura", kind: "state", pinPrefixes: ["799"] },
  {
    name: "Uttar Pradesh",
    kind: "state",
    pinPrefixes: ["20", "21", "22", "23", "24", "25", "26", "27", "28"],
  },
  {
    name: "Uttarakhand",
    kind: "state",
    pinPrefixes: ["244", "246", "247", "248", "249", "262", "263"],
  },
  { name: "West Bengal", kind: "state", pinPrefixes: ["70", "71", "72", "73", "74"] },
] as const satisfies readonly { name: string; kind: "state" | "ut"; pinPrefixes: readonly string[] }[];

export type IndianState = (typeof INDIAN_STATES)[number]["name"];

// Marked pure, so a page that needs only the mobile helpers below does not download the list of states.
export const INDIAN_STATE_NAMES = /* @__PURE__ */ INDIAN_STATES.map((state) => state.name) as [
  IndianState,
  ...IndianState[],
];

export const isIndianState = (value: string): value is IndianState =>
  (INDIAN_STATE_NAMES as readonly string[]).includes(value);

/** Six digits, the first one 1-9 (no PIN starts with 0). */
export const PIN_PATTERN = /^[1-9][0-9]{5}$/;

/** Whether a well-formed PIN belongs to the state's postal ranges. */
export function pinMatchesState(pin: string, state: string): boolean {
  if (!PIN_PATTERN.test(pin)) return false;
  const entry = INDIAN_STATES.find((candidate) => candidate.name === state);
  if (!entry) return false;
  return entry.pinPrefixes.some((prefix) => pin.startsWith(prefix));
}

/**
 * An Indian mobile number as its 10 digits, accepting what people type: spaces, dashes,
 * a +91 / 91 / 0 prefix. Mobile numbers start with 6, 7, 8 or 9. Null when it is not one.
 */
export function normalizeMobile(input: string): string | null {
  let digits = input.replace(/[\s\-().]/g, "");
  if (digits.startsWith("+91")) digits = digits.slice(3);
  else if (digits.length === 12 && digits.startsWith("91")) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith("0")) digits = digits.slice(1);
  return /^[6-9][0-9]{9}$/.test(digits) ? digits : null;
}

/** 98765 43210, the way Indian mobile numbers are read out. */
export const formatMobile = (digits: string) =>
  digits.length === 10 ? `${digits.slice(0, 5)} ${digits.slice(5)}` : digits;
