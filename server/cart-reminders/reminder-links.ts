import { createHmac, timingSafeEqual } from "node:crypto";
import type { Env } from "../env.ts";

/**
 * The links in a cart reminder (docs/decisions/089). Each is an HMAC for its one purpose, so no table holds
 * them and none can be made without the secret: the cart's link names the left cart and when it stops
 * working; the unsubscribe link names the address and never stops working (the law wants it honoured).
 */
const sign = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("base64url");

const same = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

export const restoreSignature = (secret: string, leftCartId: string, expires: number) =>
  sign(secret, `cart-back:${leftCartId}:${expires}`);

export function restoreLink(env: Env, secret: string, leftCartId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${env.PUBLIC_URL}/cart-back/${leftCartId}?e=${expires}&s=${restoreSignature(secret, leftCartId, expires)}`;
}

/** "valid", "expired" or "wrong" for what a restore link carried. */
export function checkRestoreLink(
  secret: string,
  link: { id: string; e: string; s: string },
  now = new Date(),
): "valid" | "expired" | "wrong" {
  const expires = Number(link.e);
  if (!Number.isSafeInteger(expires) || !same(restoreSignature(secret, link.id, expires), link.s)) {
    return "wrong";
  }
  return now.getTime() >= expires * 1000 ? "expired" : "valid";
}

const encodeEmail = (email: string) => Buffer.from(email.toLowerCase()).toString("base64url");

export const unsubscribeSignature = (secret: string, email: string) =>
  sign(secret, `unsubscribe:${email.toLowerCase()}`);

export function unsubscribeLink(env: Env, secret: string, email: string): string {
  return `${env.PUBLIC_URL}/unsubscribe?a=${encodeEmail(email)}&s=${unsubscribeSignature(secret, email)}`;
}

/** The address an unsubscribe link was made for, or null when it was not made by this shop. */
export function unsubscribeAddress(secret: string, link: { a: string; s: string }): string | null {
  const email = Buffer.from(link.a, "base64url").toString("utf8");
  if (!email.includes("@") || encodeEmail(email) !== link.a) return null;
  return same(unsubscribeSignature(secret, email), link.s) ? email : null;
}

/**
 * A WhatsApp reminder's unsubscribe link names the number (`m`, ten digits) rather than an address, signed for
 * its channel; it is the query WhatsApp appends to the template's `/unsubscribe?{{1}}` button.
 */
export const whatsAppUnsubscribeQuery = (secret: string, mobile: string) =>
  `m=${mobile}&s=${sign(secret, `unsubscribe:whatsapp:${mobile}`)}`;

/** The number a WhatsApp unsubscribe link was made for, or null when it was not made by this shop. */
export function unsubscribeMobile(secret: string, link: { m: string; s: string }): string | null {
  if (!/^[6-9]\d{9}$/.test(link.m)) return null;
  return same(sign(secret, `unsubscribe:whatsapp:${link.m}`), link.s) ? link.m : null;
}

/** The part of the cart's link after `/cart-back/`: what WhatsApp appends to the template's button URL. */
export const restoreSuffix = (env: Env, secret: string, leftCartId: string, expiresAt: Date) =>
  restoreLink(env, secret, leftCartId, expiresAt).slice(`${env.PUBLIC_URL}/cart-back/`.length);
