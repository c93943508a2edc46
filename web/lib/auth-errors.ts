import { useState } from "react";

/**
 * Every sign-in failure the shopper can meet, in the shop's words, in one place. Better Auth answers with
 * error codes (API calls) or `?error=` parameters (links and provider redirects); both come through here.
 * No message says whether an e-mail address has an account.
 */
const INTERRUPTED =
  "The sign-in with {provider} took too long, or was started in another tab. Nothing was saved. Please try again.";

const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "The e-mail or password is incorrect. Check both and try again.",
  INVALID_EMAIL: "Please enter a valid e-mail address.",
  EMAIL_NOT_VERIFIED:
    "Please confirm your e-mail address first. We have sent you a new confirmation link; it may take a minute to arrive.",
  INVALID_NAME: "Please enter your name: up to 100 characters, on one line.",
  INVALID_IMAGE: "That picture cannot be used. Please choose another.",
  PASSWORD_TOO_SHORT: "Use at least 8 characters for your password.",
  PASSWORD_TOO_LONG: "Use at most 128 characters for your password.",
  INVALID_PASSWORD: "Your current password is incorrect.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "This account has no password yet. Set one with “Forgot your password?”.",
  SESSION_EXPIRED: "For your safety, please sign out and sign in again, then try once more.",
  SESSION_NOT_FRESH: "For your safety, please sign out and sign in again, then try once more.",
  UNAUTHORIZED: "Your session has ended. Please sign in again.",
  // Reset and e-mail links: an expired link and a used one look the same to the shopper.
  INVALID_TOKEN: "This link has expired or has already been used. Please ask for a new one.",
  // Only the sign-up confirmation link says "expired" apart from "used".
  TOKEN_EXPIRED:
    "This confirmation link has expired. Sign in with your password and we will send you a new one.",
  // Sign-in with a mobile number.
  INVALID_PHONE_NUMBER: "Please enter a 10-digit Indian mobile number, starting with 6, 7, 8 or 9.",
  INVALID_OTP_FORMAT: "Please enter the 6-digit code from the SMS.",
  // The server answers every refused code alike (a pending code is nobody else's business), so this one
  // message covers a typo, an expired or used code and one tried too often.
  SMS_PAUSED: "Codes by SMS are paused for a while. Please sign in with your e-mail, or try again later.",
  INVALID_OTP: "That code is not right or no longer works. Check the SMS, or ask for a new code.",
  // Provider redirects (lower-case codes from Better Auth's OAuth callback); {provider} is the provider's
  // name when the page knows it (the sign-in buttons add ?provider=), else "the provider".
  account_not_linked:
    "We could not sign you in with {provider}, because {provider} has not confirmed your e-mail address to us. If you already have an account here, sign in with your password or an e-mail link first, then connect {provider} under Settings → Ways to sign in.",
  unable_to_link_account: "We could not connect {provider}. Please try again, or sign in another way.",
  account_already_linked_to_different_user:
    "That {provider} account is already connected to another account here. Sign in with it there, or connect a different one.",
  email_not_found:
    "We could not sign you in with {provider}: it did not share an e-mail address, and the shop needs one to send your order e-mails. Nothing was saved. Sign in with an e-mail link instead, or allow {provider} to share your address and try again.",
  // X shares an address only when the shop's X app asks for it (a setting the shopper cannot change) and
  // the X account has a confirmed one: tell the shopper only what is theirs to do.
  "email_not_found:twitter":
    "We could not sign you in with {provider}: X did not give us an e-mail address, and the shop needs one to send your order e-mails. X gives one only for an account with a confirmed address. Nothing was saved. Sign in with an e-mail link instead, or confirm your address in X's settings and try again.",
  // GitHub listed an address but has not verified it (server/auth/social-providers.ts).
  email_not_verified:
    "We could not sign you in with {provider}: your e-mail address there is not verified yet, and the shop uses only an address {provider} has verified. Nothing was saved. Verify it in your {provider} e-mail settings and try again, or sign in with an e-mail link.",
  email_doesn_t_match: "The e-mail address from {provider} does not match this account.",
  access_denied:
    "You cancelled signing in with {provider}. Nothing was changed; try again or sign in another way.",
  state_not_found: INTERRUPTED,
  state_mismatch: INTERRUPTED,
  please_restart_the_process: INTERRUPTED,
  no_code: INTERRUPTED,
  invalid_code:
    "{provider} did not confirm the sign-in: it may be unavailable, or the page was opened twice. Nothing was saved. Please try again in a moment.",
  unable_to_get_user_info:
    "We could not reach {provider} to finish signing you in. Nothing was saved. Please try again in a moment.",
  oauth_provider_not_found: "That way of signing in is not available. Please sign in another way.",
  internal_server_error: "Something went wrong on our side. Please try again.",
};

export const NO_ADMIN_ACCESS = "This account has no admin access.";
const NETWORK = "Network error. Please try again.";
const FALLBACK = "Something went wrong. Please try again.";

export type AuthFailure = { status?: number; code?: string; retryAfterSeconds?: number };

export function authErrorMessage(failure: AuthFailure): string {
  if (failure.status === 429) {
    const wait = describeWait(failure.retryAfterSeconds);
    // Both limits count per e-mail address, whether or not it has an account: saying so reveals nothing.
    if (failure.code === "SIGN_IN_PAUSED") {
      return `Too many attempts for this address. Please wait ${wait}, or sign in with an e-mail link.`;
    }
    if (failure.code === "TOO_MANY_EMAILS") {
      return `We have already sent several e-mails to this address. Please check your inbox, or wait ${wait} and try again.`;
    }
    if (failure.code === "TOO_MANY_SMS") {
      return `We have already sent several codes. Please check your messages, or wait ${wait} and try again.`;
    }
    return `Too many attempts. Please wait ${wait} and try again.`;
  }
  if (failure.status === 0 || failure.code === "network_error") return NETWORK;
  return (failure.code && MESSAGES[failure.code]) || FALLBACK;
}

function describeWait(seconds: number | undefined): string {
  if (!seconds || seconds <= 0) return "a minute";
  if (seconds === 1) return "a second";
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * The message for an `?error=` parameter that a link or a provider sent the shopper back with, naming the
 * provider when it is known; a provider may have its own wording of a code (`code:providerId`).
 */
export function redirectErrorMessage(
  code: string | null,
  providerName?: string,
  providerId?: string | null,
): string | null {
  if (!code) return null;
  const message = (providerId && MESSAGES[`${code}:${providerId}`]) || MESSAGES[code] || FALLBACK;
  const named = message.replaceAll("{provider}", providerName ?? "the provider");
  return named.charAt(0).toUpperCase() + named.slice(1);
}

type ClientResult<T> = { data: T | null; error: { status: number; code?: string; message?: string } | null };
type FetchOptions = { onError: (context: { response: Response }) => void };

/**
 * Runs one Better Auth client call and turns its failure into the shop's message, reading the limiter's
 * X-Retry-After so "too many attempts" can say how long to wait.
 */
export async function attemptAuth<T>(
  call: (fetchOptions: FetchOptions) => Promise<ClientResult<T>>,
): Promise<{ ok: true; data: T } | { ok: false; message: string; code?: string }> {
  let retryAfterSeconds: number | undefined;
  const fetchOptions: FetchOptions = {
    onError: ({ response }) => {
      retryAfterSeconds = Number(response.headers.get("X-Retry-After")) || undefined;
    },
  };
  try {
    const { data, error } = await call(fetchOptions);
    if (error) {
      return {
        ok: false,
        code: error.code,
        message: authErrorMessage({ status: error.status, code: error.code, retryAfterSeconds }),
      };
    }
    return { ok: true, data: data as T };
  } catch {
    return { ok: false, code: "network_error", message: NETWORK };
  }
}

type ProviderCall = Parameters<typeof attemptAuth>[0];

/**
 * Sending the browser to a sign-in provider (to sign in, or to connect it to the account): which provider
 * is on its way, and why it could not go. On success the browser is already leaving for the provider, so
 * the page is left as it is.
 */
export function useProviderRedirect() {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function goTo(provider: string, call: ProviderCall) {
    setPending(provider);
    setError(null);
    const result = await attemptAuth(call);
    if (!result.ok) {
      setPending(null);
      setError(result.message);
    }
  }

  return { pending, error, goTo };
}
