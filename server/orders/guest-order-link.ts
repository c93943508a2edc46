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
  const expected = Buffer.from(guestOrderToken(env, orderId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function guestOrderLink(env: Env, order: { id: string; number: string }): string {
  return `${env.PUBLIC_URL}/guest-order/${order.number}?token=${guestOrderToken(env, order.id)}`;
}
