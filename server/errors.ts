import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { log } from "./log.ts";

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const DEFAULT_CODES: Partial<Record<number, string>> = {
  400: "invalid_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "too_many_requests",
  503: "unavailable",
};

/** Thrown from handlers; the one onError turns it into the JSON error shape. */
export function httpError(
  status: ContentfulStatusCode,
  code: string,
  message: string,
  fields?: Record<string, string>,
) {
  return new HTTPException(status, { message, cause: { code, fields } });
}

export const notFound = (message: string) => httpError(404, "not_found", message);

/** A 429 that also says, in Retry-After, how many seconds until the next attempt can succeed. */
export function tooManyRequests(code: string, message: string, retryAfterSeconds: number) {
  return new HTTPException(429, { message, cause: { code, retryAfterSeconds } });
}

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

// How a database that is down, restarting, frozen or overloaded shows itself: Node's socket errors (and a
// missing Unix socket),
// PostgreSQL's connection-exception class (08), operator intervention (57P01 terminated by an
// administrator, 57P02/57P03 restarting), a statement cut off by statement_timeout (57014), too many
// connections (53300), and pg's own messages for a connection it lost or gave up waiting for.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "57014",
  "53300",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|terminating connection|the database system is (starting up|shutting down|in recovery mode)|Cannot use a pool after calling end/i;

/**
 * Whether an error (or anything it wraps, at any depth: Better Auth wraps Drizzle's error, which wraps
 * pg's) says the database cannot be reached, which is a 503, not a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 20) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
    // A Unix socket whose server has stopped is gone from its folder: connecting to it finds no such file.
    if (code === "ENOENT" && (current as { syscall?: unknown }).syscall === "connect") return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

export const unavailableBody = () =>
  errorBody("unavailable", "The shop is briefly unavailable. Please try again in a moment.");

export function handleError(error: Error, c: Context) {
  if (error instanceof HTTPException) {
    const cause = error.cause as
      | { code?: string; fields?: Record<string, string>; retryAfterSeconds?: number }
      | undefined;
    const status = error.status as ContentfulStatusCode;
    if (cause?.retryAfterSeconds) c.header("Retry-After", String(cause.retryAfterSeconds));
    const code = cause?.code ?? DEFAULT_CODES[status] ?? "error";
    return c.json(errorBody(code, error.message || "Request failed", cause?.fields), status);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn({ method: c.req.method, route: routeOf(c), err: error }, "database unavailable");
    return c.json(unavailableBody(), 503);
  }
  log.error({ method: c.req.method, route: routeOf(c), err: error }, "request failed");
  return c.json(errorBody("internal_error", "Something went wrong on our side. Please try again."), 500);
}

/** The route pattern (/api/orders/:number), never the path itself, which may carry a token or an address. */
export function routeOf(c: Context): string {
  return c.req.routePath && c.req.routePath !== "*" && c.req.routePath !== "/*"
    ? c.req.routePath
    : "unmatched";
}

/**
 * Better Auth answers some refusals (an unknown path under /api/auth, an empty provider or token, account-info
 * signed out) with no body at all, some of them labelled JSON; those get the error shape too. Its own JSON
 * errors ({ code, message }, which its browser client reads) pass unchanged.
 */
export async function withErrorBody(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  if ((await response.clone().text()).trim() !== "") return response;
  const status = response.status;
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  const message = status === 404 ? "There is no such sign-in page." : "The request could not be handled.";
  return new Response(JSON.stringify(errorBody(DEFAULT_CODES[status] ?? "error", message)), {
    status,
    headers,
  });
}
