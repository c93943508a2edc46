import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { plainText, textProblem } from "../common/schemas/text.ts";
import type { Env } from "./env.ts";
import { httpError } from "./errors.ts";
import { PRODUCT_IMAGE_UPLOAD_PATH } from "./products/product-images.ts";

/** Razorpay's server-to-server notices: a limit of their own, and verified by signature rather than origin. */
export const RAZORPAY_WEBHOOK_PATH = "/api/payments/razorpay/webhook";
/** Shiprocket's tracking updates: verified by their x-api-key token rather than origin, limited by their route. */
export const TRACKING_WEBHOOK_PATH = "/api/shipping/tracking-updates";
/** WhatsApp's replies: verified by Meta's X-Hub-Signature-256, limited by their route (docs/decisions/065). */
export const WHATSAPP_WEBHOOK_PATH = "/api/messaging/whatsapp";
const SERVER_TO_SERVER = new Set([RAZORPAY_WEBHOOK_PATH, TRACKING_WEBHOOK_PATH, WHATSAPP_WEBHOOK_PATH]);

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
  const tooLarge = () => {
    throw httpError(
      413,
      "payload_too_large",
      `The request body is larger than the ${describeBytes(maxSize)} the shop accepts.`,
    );
  };
  const limit = bodyLimit({ maxSize, onError: tooLarge });
  // A GET or HEAD never has a body here (the adapter does not read one), and asking would build the whole
  // fetch Request the adapter otherwise keeps lazy: a tenth of the cost of a catalogue answer.
  // A product photo (up to 10 MB, sent in base64) is the one body allowed to be larger, and its limit is
  // the upload route's own, after the owner check: counting a chunked body means holding it, so a limit
  // here would let anyone make the shop hold 14 MB per connection before hearing 401.
  return (c, next) => {
    if (
      c.req.method === "GET" ||
      c.req.method === "HEAD" ||
      SERVER_TO_SERVER.has(c.req.path) ||
      (c.req.method === "POST" && c.req.path === PRODUCT_IMAGE_UPLOAD_PATH)
    ) {
      return next();
    }
    // A declared length is the whole body (node's parser reads no more), so it is judged from the header,
    // as bodyLimit judges it, but without asking for the body: that builds the adapter's fetch Request and a
    // web stream over the socket, which the JSON read then drains, where the adapter otherwise reads the
    // bytes straight off the request (0.3 ms of an order's CPU, measured over HTTP).
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(declared, 10) > maxSize ? tooLarge() : next();
    }
    return limit(c, next);
  };
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A state-changing request of the shop's own API must come from the shop's own pages: the browser's Origin
 * is the shop's (or, without an Origin, Sec-Fetch-Site says same-origin), the rule Better Auth applies to
 * its endpoints. A site next door (a sibling subdomain is "same-site", so SameSite cookies do not stop it)
 * cannot post a form: a form cannot send application/json, which every such request must be, body or not.
 * Better Auth checks its own /api/auth/*, Razorpay's webhook is verified by its signature and Shiprocket's by
 * its token.
 */
export function requireSameOriginJson(env: Env): MiddlewareHandler {
  const shopOrigin = new URL(env.PUBLIC_URL).origin;
  return async (c, next) => {
    const path = c.req.path;
    if (!STATE_CHANGING.has(c.req.method) || SERVER_TO_SERVER.has(path) || path.startsWith("/api/auth/")) {
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

/** The fields of Better Auth's bodies that the shop stores as text: strings, under the shop's text rule. */
const AUTH_TEXT_FIELDS: Record<string, z.ZodType> = {
  "/api/auth/sign-up/email": z.looseObject({ name: plainText() }),
  "/api/auth/update-user": z.looseObject({
    name: plainText().optional(),
    image: plainText().nullable().optional(),
  }),
  "/api/auth/sign-in/magic-link": z.looseObject({ name: plainText().optional() }),
};

/**
 * Better Auth's endpoints follow the shop's text rule too: no string anywhere in a JSON body carries a NUL or
 * another control character (PostgreSQL refuses a NUL, which surfaced as a 500), and the fields it stores as
 * text are strings. Refused with a 400 naming the field, before Better Auth reads the body.
 */
/** Objects and arrays inside objects: the sign-in forms send two levels at most. */
const MAX_AUTH_BODY_DEPTH = 8;

export function checkAuthBodyText(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "POST" || !c.req.header("Content-Type")?.includes("json")) return next();
    let body: unknown;
    try {
      body = JSON.parse(await c.req.raw.clone().text());
    } catch {
      return next(); // Better Auth answers unreadable JSON itself
    }
    const fields: Record<string, string> = {};
    // Iterative, so a body nested thousands deep cannot overflow the stack here; and refused when deeper than
    // any sign-in form sends, because Better Auth merges bodies into its options recursively (defu) and
    // overflows its stack on one.
    const pending: { value: unknown; path: string; depth: number }[] = [{ value: body, path: "", depth: 0 }];
    while (pending.length && Object.keys(fields).length < 10) {
      const { value, path, depth } = pending.pop() as { value: unknown; path: string; depth: number };
      if (typeof value === "string") {
        const problem = textProblem(value, true);
        if (problem) fields[path || "body"] = problem;
      } else if (value && typeof value === "object") {
        if (depth >= MAX_AUTH_BODY_DEPTH) {
          fields[path || "body"] = "is nested too deeply";
          continue;
        }
        for (const [key, child] of Object.entries(value)) {
          pending.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
        }
      }
    }
    const schema = AUTH_TEXT_FIELDS[c.req.path];
    const typed = schema?.safeParse(body);
    for (const issue of typed && !typed.success ? typed.error.issues : []) {
      fields[issue.path.join(".") || "body"] ??= issue.message;
    }
    const entries = Object.entries(fields);
    if (entries.length) {
      const message = entries.map(([field, problem]) => `${field}: ${problem}`).join("; ");
      throw httpError(400, "invalid_request", message, fields);
    }
    return next();
  };
}
