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
