/** Only used to parse a path the way a browser would; never contacted. */
const PARSE_BASE = "https://shop.invalid";

const MAX_LENGTH = 2048;

/**
 * Browsers drop tabs and newlines anywhere in an address and trim spaces and controls at its ends, so
 * "/\t/evil.example" is "//evil.example" to them, another site. A shop path never needs any whitespace,
 * control, invisible formatting character or backslash (which browsers read as "/"), so any of them
 * refuses the whole target.
 */
const UNSAFE_CHARACTER = /[\s\p{Cc}\p{Cf}\\]/u;

/** The same, percent-encoded in the path, where a second decoding somewhere would bring them back. */
const UNSAFE_ENCODED_IN_PATH = /%(?:[01][0-9a-f]|7f|2f|5c|25)/i;

/**
 * The one filter for every place-to-go-next (`redirectTo` on the sign-in pages, the callback addresses sent to
 * the auth server): a path on this shop, or `fallback`. Returns the path as a URL parser reads it, so what
 * was checked is exactly what is followed.
 */
export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  if (!value || value.length > MAX_LENGTH) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || UNSAFE_CHARACTER.test(value)) return fallback;
  const pathEnd = value.search(/[?#]/);
  if (UNSAFE_ENCODED_IN_PATH.test(pathEnd === -1 ? value : value.slice(0, pathEnd))) return fallback;
  let url: URL;
  try {
    url = new URL(value, PARSE_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== PARSE_BASE) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  return target.startsWith("//") ? fallback : target;
}

/** The query string that carries the place to come back to through the sign-in screens. */
export function withRedirect(path: string, redirectTo: string | null | undefined): string {
  const target = safeRedirectTarget(redirectTo, "");
  if (!target || target === "/") return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}redirectTo=${encodeURIComponent(target)}`;
}
