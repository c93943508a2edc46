import { normalizeMobile } from "./india.ts";

/** Signing in with a mobile number: a code of this many digits, valid this long, for this many tries. */
export const MOBILE_CODE_LENGTH = 6;
export const MOBILE_CODE_MINUTES = 5;
export const MOBILE_CODE_TRIES = 5;

/** An Indian mobile as typed (spaces, +91, 0 ...) in E.164, `+919876543210`; null when it is not one. */
export function toE164Mobile(input: string): string | null {
  const digits = normalizeMobile(input);
  return digits ? `+91${digits}` : null;
}

/** The 10 digits of an E.164 Indian mobile, as forms show it. */
export const nationalDigits = (e164: string) => (e164.startsWith("+91") ? e164.slice(3) : e164);
