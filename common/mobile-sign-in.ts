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

/**
 * Better Auth needs an e-mail address on every account; one created by a mobile number gets this one, in
 * the `.invalid` domain (RFC 2606), which no mail server delivers to and no one can own. The shop never
 * mails it and refuses it wherever an address is typed, so no one can take it first.
 */
export const MOBILE_ACCOUNT_EMAIL_DOMAIN = "mobile.invalid";

export const mobileAccountEmail = (e164: string) =>
  `${e164.replace(/^\+/, "")}@${MOBILE_ACCOUNT_EMAIL_DOMAIN}`;

export const isMobileAccountEmail = (email: string) =>
  email.trim().toLowerCase().endsWith(`@${MOBILE_ACCOUNT_EMAIL_DOMAIN}`);

/** How an account is named to its owner: a mobile account by its number, others by their e-mail. */
export function accountLabel(email: string): string {
  if (!isMobileAccountEmail(email)) return email;
  const digits = email.split("@")[0] ?? "";
  return digits.startsWith("91") && digits.length === 12
    ? `+91 ${digits.slice(2, 7)} ${digits.slice(7)}`
    : `+${digits}`;
}
