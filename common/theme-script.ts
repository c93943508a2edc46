/** Where the shopper's choice of theme is kept in localStorage; none means "follow the system". */
export const THEME_STORAGE_KEY = "theme";

/**
 * Applies the remembered theme, or the system's on a first visit, before the page paints, so it never
 * flashes. The build writes it into index.html's head (vite.config.ts) rather than as a file: a blocking
 * script in its own file costs the first paint a round trip. The server's Content-Security-Policy allows
 * this exact text by its hash and no other inline script.
 */
export const THEME_SCRIPT = `(() => {
  var stored = null;
  try {
    stored = localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});
  } catch (_) {}
  var dark = stored ? stored === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
})();`;

/** Where index.html asks for it. */
export const THEME_SCRIPT_PLACEHOLDER = "<!-- theme-script -->";
