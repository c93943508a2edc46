// Applies the remembered theme, or the system's on a first visit, before the page paints.
(() => {
  var stored = null;
  try {
    stored = localStorage.getItem("theme");
  } catch {
    // Storage blocked (private mode): fall back to the system setting.
  }
  var dark = stored ? stored === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
})();
