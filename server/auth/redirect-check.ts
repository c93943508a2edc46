import { APIError } from "better-auth/api";
import { safeRedirectTarget } from "../../common/redirect-target.ts";

/** The request fields through which a client tells the auth server where to send the shopper next. */
const TARGET_FIELDS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL", "redirectTo"] as const;

/**
 * Whether `value` sends the shopper to a page of this shop, and, when that page is a sign-in page carrying
 * `redirectTo`, whether that goes on to a page of this shop too: the same filter the web app applies.
 */
export function isShopTarget(value: string, publicOrigin: string): boolean {
  const path = value.startsWith(`${publicOrigin}/`) ? value.slice(publicOrigin.length) : value;
  const target = safeRedirectTarget(path, "");
  if (!target) return false;
  const onwards = new URL(target, publicOrigin).searchParams.getAll("redirectTo");
  return onwards.every((next) => safeRedirectTarget(next, "") !== "");
}

/**
 * Called first by the auth server's `before` hook on every endpoint, next to Better Auth's own origin check
 * (which looks at the address it is given, not at the `redirectTo` an address carries on to the web app).
 * Throws a 403 for a target outside the shop.
 */
export function refuseForeignTargets(ctx: { body?: unknown; query?: unknown }, publicOrigin: string): void {
  for (const source of [ctx.body, ctx.query] as (Record<string, unknown> | undefined)[]) {
    if (!source || typeof source !== "object") continue;
    for (const field of TARGET_FIELDS) {
      const value = source[field];
      if (value === undefined || value === null || value === "") continue;
      if (typeof value !== "string" || !isShopTarget(value, publicOrigin)) {
        throw new APIError("FORBIDDEN", {
          code: "INVALID_REDIRECT_TARGET",
          message: `${field} must be a page of this shop.`,
        });
      }
    }
  }
}
