/** The one fetch wrapper: JSON in, typed data out, and an ApiError carrying the server's code and message. */
export type ApiError = Error & {
  status: number;
  code: string;
  fields?: Record<string, string>;
  /** The parsed response body, for endpoints with a shape of their own (the contact form's). */
  body?: unknown;
};

export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && typeof (error as ApiError).status === "number";
}

function apiError(
  status: number,
  code: string,
  message: string,
  fields?: Record<string, string>,
  body?: unknown,
): ApiError {
  return Object.assign(new Error(message), { status, code, fields, body });
}

/** How a request reaches the API: fetch in the browser; in-process on the server (see web/entry-server.tsx). */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (path, init) => fetch(`/api${path}`, init);

/** The server renders pages with loaders that call the API in-process, without the visitor's cookies. */
export function setApiTransport(next: ApiTransport) {
  transport = next;
}

export async function api<T>(
  path: string,
  init: Omit<RequestInit, "body"> & { body?: unknown } = {},
): Promise<T> {
  const { body, headers, ...rest } = init;
  // The API takes a state-changing request only as JSON, body or not (a form from another site cannot send
  // that); the browser adds the Origin it checks too.
  const method = (rest.method ?? "GET").toUpperCase();
  const json = body !== undefined || (method !== "GET" && method !== "HEAD");
  let response: Response;
  try {
    response = await transport(path, {
      ...rest,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(json ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw apiError(0, "network_error", "Network error. Please try again.");
  }
  const data = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = data?.error;
    throw apiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? "Something went wrong. Please try again.",
      error?.fields,
      data,
    );
  }
  return data as T;
}

/** Query string from an object, skipping empty values. */
export function toQuery(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
