// Kept apart from mobile-sign-in.ts (and the list of states it brings): the header names a mobile account
// on every page.

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
