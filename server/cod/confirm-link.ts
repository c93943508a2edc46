import { createHmac, timingSafeEqual } from "node:crypto";
import type { OrderRow } from "../db/schema.ts";
import type { Env } from "../env.ts";

/**
 * The one-tap link that confirms a cash-on-delivery order (docs/decisions/065). Its token is an HMAC of the
 * order's id for this one purpose, like a guest order's link (decision 045): it opens this order's
 * confirmation page only, needs no table, and cannot be made without the secret.
 */
export function codConfirmToken(secret: string, orderId: string): string {
  return createHmac("sha256", secret).update(`cod-confirm:${orderId}`).digest("base64url");
}

export function codConfirmTokenMatches(secret: string, orderId: string, token: string): boolean {
  const expected = Buffer.from(codConfirmToken(secret, orderId));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const codConfirmLink = (env: Env, secret: string, order: Pick<OrderRow, "id" | "number">) =>
  `${env.PUBLIC_URL}/confirm-order/${order.number}?token=${codConfirmToken(secret, order.id)}`;

/** The hours the shopper was given, as the messages say them. */
export const hoursToConfirm = (order: Pick<OrderRow, "createdAt" | "codConfirmBy">) =>
  Math.max(1, Math.round(((order.codConfirmBy?.getTime() ?? 0) - order.createdAt.getTime()) / 3_600_000));
