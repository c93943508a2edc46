/**
 * Where to go after signing in: only a path on this shop. "//evil.example" and "/\evil.example" are
 * addresses on other sites to a browser, so they fall back like anything else that is not a plain path.
 */
export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}

/** The query string that carries the place to come back to through the sign-in screens. */
export function withRedirect(path: string, redirectTo: string | null | undefined): string {
  const target = safeRedirectTarget(redirectTo, "");
  if (!target || target === "/") return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}redirectTo=${encodeURIComponent(target)}`;
}
