import { createHmac, timingSafeEqual } from "node:crypto";
import type { Env } from "../env.ts";
import { resolveAuthSecret } from "../secrets.ts";

// The secret is read once per configuration (it may live in a file under DATA_DIR).
const secrets = new WeakMap<Env, string>();
function secretOf(env: Env): string {
  let secret = secrets.get(env);
  if (!secret) {
    secret = resolveAuthSecret(env);
    secrets.set(env, secret);
  }
  return secret;
}

/**
 * The token of a guest order's link: an HMAC of the order's id with the server's secret, so a link opens
 * exactly one order, needs no table and cannot be made without the secret. It never expires: it stands in
 * for the account a guest does not have, and the mail that carries it is the guest's record of the order.
 */
export function guestOrderToken(env: Env, orderId: string): string {
  return createHmac("sha256", secretOf(env)).update(`guest-order:${orderId}`).digest("base64url");
}

export function guestOrderTokenMatches(env: Env, orderId: string, token: string): boolean {
  return sameToken(guestOrderToken(env, orderId), token);
}

// Both are 43 characters once the request's schema has passed, so the comparison always runs in full.
function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function guestOrderLink(env: Env, order: { id: string; number: string }): string {
  return `${env.PUBLIC_URL}/guest-order/${order.number}?token=${guestOrderToken(env, order.id)}`;
}

/**
 * The token of the link that adds a guest order to the account with its e-mail address. It is sent only to
 * that address, never in an answer (the order's own token is answered to whoever placed it), so using it
 * shows that the mailbox's owner wants the order in their account.
 */
export function guestOrderClaimToken(env: Env, orderId: string): string {
  return createHmac("sha256", secretOf(env)).update(`guest-order-claim:${orderId}`).digest("base64url");
}

export function guestOrderClaimMatches(env: Env, orderId: string, token: string): boolean {
  return sameToken(guestOrderClaimToken(env, orderId), token);
}

export function guestOrderClaimLink(env: Env, order: { id: string; number: string }): string {
  const search = new URLSearchParams({
    token: guestOrderToken(env, order.id),
    claim: guestOrderClaimToken(env, order.id),
  });
  return `${env.PUBLIC_URL}/guest-order/${order.number}?${search}`;
}
