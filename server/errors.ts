import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

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

// Connection failures surface as these; the database being down is a 503, not a bug.
const UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "53300"]);

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
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  if (code && UNAVAILABLE.has(code)) {
    console.error(`[api] ${c.req.method} ${c.req.path}: database unavailable (${code})`);
    return c.json(
      errorBody("unavailable", "The shop is briefly unavailable. Please try again in a moment."),
      503,
    );
  }
  console.error(`[api] ${c.req.method} ${c.req.path}:`, error);
  return c.json(errorBody("internal_error", "Something went wrong on our side. Please try again."), 500);
}
