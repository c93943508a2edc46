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

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

// Connection failures surface as these; the database being down is a 503, not a bug.
const UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "53300"]);

export function handleError(error: Error, c: Context) {
  if (error instanceof HTTPException) {
    const cause = error.cause as { code?: string; fields?: Record<string, string> } | undefined;
    const status = error.status as ContentfulStatusCode;
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

/**
 * Better Auth answers some refusals (an unknown path under /api/auth, an empty provider or token) with no body
 * at all; those get the error shape too. Its own JSON errors ({ code, message }, which its browser client
 * reads) pass unchanged.
 */
export async function withErrorBody(response: Response): Promise<Response> {
  if (response.status < 400 || (response.headers.get("content-type") ?? "").includes("json")) return response;
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
