import { THEME_STORAGE_KEY } from "./theme-script.ts";

/**
 * Starts the app's code once the server-rendered page has painted (its first contentful paint, as the
 * browser reports it), instead of alongside the stylesheet and the LCP picture. The page is complete HTML
 * without it (links work, the content is there), so on a slow phone connection its first paint and its main
 * picture get the bandwidth first and the app's ~100 kB follow; on a fast one the difference is a frame or
 * two. A hidden tab (which paints no frames) starts it at once, and so does a browser that does not report
 * paints (after its first frame), and so does a page the server leaves empty for the app to draw (sign-in,
 * cart, admin), which has nothing to paint until the app runs.
 *
 * It also keeps the taps the server's page takes before the app has started (decision 063). The page's
 * buttons are there long before the app (on a slow phone, seconds), and a tap on one did nothing. Each tap
 * on a button is held here, the button is marked as taken at once (`data-tap-taken`, `aria-busy`; styled in
 * web/styles.css, with the words of its `data-tap-label` where it has them, "Adding…"), the app is started
 * at once if it was still waiting for the paint, and web/lib/kept-taps.ts carries the taps out in order
 * when the app has hydrated, after putting back into the app what was typed into its fields meanwhile. The
 * theme toggle (`data-theme-toggle`) needs no app: it is switched here, as
 * the app would, so the page turns dark under the finger.
 *
 * The build (vite.config.ts) puts it in place of the module script and the modulepreload links Vite writes,
 * naming them in its own data attributes: its text is the same in every build, so the server's
 * Content-Security-Policy allows it by its hash, as it does the theme script.
 */
export const APP_LOADER_SCRIPT = `(() => {
  var loader = document.currentScript;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    // The Content-Security-Policy allows no eval, and zod probes for it with new Function when a schema is
    // made, which the browser reports as a violation: jitless, zod parses the same without the probe. Zod
    // reads this global when it loads; set here, it costs the app's JavaScript nothing.
    window.__zod_globalConfig = { jitless: true };
    (loader.dataset.preload || "").split(" ").forEach(function (href) {
      if (!href) return;
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
    var entry = document.createElement("script");
    entry.type = "module";
    entry.crossOrigin = "";
    entry.src = loader.dataset.entry;
    // No app is coming (its code could not be fetched): the taps kept cannot be carried out, so the page
    // stops saying they will be.
    entry.onerror = takeKeptTaps;
    document.head.appendChild(entry);
  }
  var kept = [];
  var ariaBusy = new Map();
  function keepTap(event) {
    var control = event.target instanceof Element ? event.target.closest("button") : null;
    if (!control || control.disabled) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (control.hasAttribute("data-theme-toggle")) {
      var root = document.documentElement;
      var dark = !root.classList.contains("dark");
      root.classList.toggle("dark", dark);
      root.style.colorScheme = dark ? "dark" : "light";
      try {
        localStorage.setItem(${JSON.stringify(THEME_STORAGE_KEY)}, dark ? "dark" : "light");
      } catch (_) {}
      return;
    }
    if (ariaBusy.has(control)) {
      // A second tap on Add to cart is one the app would ignore while the first is under way.
      if (control.hasAttribute("data-tap-label")) return;
    } else {
      ariaBusy.set(control, control.getAttribute("aria-busy"));
      control.setAttribute("data-tap-taken", "");
      control.setAttribute("aria-busy", "true");
    }
    kept.push(control);
    start();
  }
  document.addEventListener("click", keepTap, true);
  // Text typed before the app: the field shows it, but the app's state would not hold it.
  var typed = new Map();
  function keepTyping(event) {
    var field = event.target;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    typed.set(field, field.value);
    start();
  }
  document.addEventListener("input", keepTyping, true);
  function takeKeptTaps() {
    document.removeEventListener("click", keepTap, true);
    document.removeEventListener("input", keepTyping, true);
    ariaBusy.forEach(function (busy, control) {
      control.removeAttribute("data-tap-taken");
      if (busy === null) control.removeAttribute("aria-busy");
      else control.setAttribute("aria-busy", busy);
    });
    ariaBusy.clear();
    var taken = { taps: kept, typed: [] };
    typed.forEach(function (value, field) {
      taken.typed.push({ field: field, value: value });
    });
    kept = [];
    typed.clear();
    return taken;
  }
  // Called once by the app when it has hydrated: from then on the app answers taps itself.
  window.__takeKeptTaps = takeKeptTaps;
  function afterPaint() {
    var root = document.getElementById("root");
    // A page the server leaves to the app (sign-in, cart, admin) has nothing to paint before it.
    if (!root || !root.firstChild || document.visibilityState === "hidden") return start();
    var observes = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (observes.indexOf("paint") < 0) return requestAnimationFrame(function () { setTimeout(start, 0); });
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    // A page still unpainted by then (a stylesheet stuck on a bad connection, a tab hidden meanwhile)
    // starts anyway.
    setTimeout(start, 3000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", afterPaint);
  else afterPaint();
})();`;

const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/** Built index.html with its module script and modulepreload links replaced by the loader naming them. */
export function withAppLoader(html: string): string {
  const entry = html.match(MODULE_SCRIPT)?.[1];
  if (!entry) throw new Error("the built index.html has no module script to load after the first paint");
  const preload = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]);
  const loader = `<script data-entry="${entry}" data-preload="${preload.join(" ")}">${APP_LOADER_SCRIPT}</script>\n    `;
  return html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, () => loader);
}
