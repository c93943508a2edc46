import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Env } from "./env.ts";
import { httpError } from "./errors.ts";

/** Razorpay's server-to-server notices: a limit of their own, and verified by signature rather than origin. */
export const RAZORPAY_WEBHOOK_PATH = "/api/payments/razorpay/webhook";

function describeBytes(bytes: number) {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} kB`;
}

/**
 * One size limit for every request body, counted while the body arrives: a declared Content-Length over it
 * is refused before a byte is read, a chunked body as soon as it passes the limit, so no handler (nor Better
 * Auth) ever holds more than the limit in memory. The node server then drains or closes the connection.
 */
export function limitRequestBodies(env: Env): MiddlewareHandler {
  const maxSize = env.API_BODY_LIMIT_BYTES;
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw httpError(
        413,
        "payload_too_large",
        `The request body is larger than the ${describeBytes(maxSize)} the shop accepts.`,
      );
    },
  });
  return (c, next) => (c.req.path === RAZORPAY_WEBHOOK_PATH ? next() : limit(c, next));
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A state-changing request of the shop's own API must come from the shop's own pages: the browser's Origin
 * is the shop's (or, without an Origin, Sec-Fetch-Site says same-origin), the rule Better Auth applies to
 * its endpoints. A site next door (a sibling subdomain is "same-site", so SameSite cookies do not stop it)
 * cannot post a form: a form cannot send application/json, which every such request must be, body or not.
 * Better Auth checks its own /api/auth/*, and Razorpay's webhook is verified by its signature.
 */
export function requireSameOriginJson(env: Env): MiddlewareHandler {
  const shopOrigin = new URL(env.PUBLIC_URL).origin;
  return async (c, next) => {
    const path = c.req.path;
    if (
      !STATE_CHANGING.has(c.req.method) ||
      path === RAZORPAY_WEBHOOK_PATH ||
      path.startsWith("/api/auth/")
    ) {
      return next();
    }
    const origin = c.req.header("Origin");
    const fromShop = origin ? origin === shopOrigin : c.req.header("Sec-Fetch-Site") === "same-origin";
    if (!fromShop) {
      throw httpError(403, "cross_site_request", "This request must come from the shop's own pages.");
    }
    const mediaType = c.req.header("Content-Type")?.split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") {
      throw httpError(
        415,
        "unsupported_media_type",
        "Send the request as JSON (Content-Type: application/json).",
      );
    }
    return next();
  };
}
