import { useSyncExternalStore } from "react";

export type Theme = "light" | "dark";

import { THEME_STORAGE_KEY } from "../../../common/theme-script.ts";

const SYSTEM_DARK = "(prefers-color-scheme: dark)";

function readStoredTheme(): Theme | null {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === "dark" || stored === "light" ? stored : null;
  } catch {
    return null; // storage blocked: the system setting decides
  }
}

function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
}

const currentTheme = (): Theme => (document.documentElement.classList.contains("dark") ? "dark" : "light");

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Until the visitor picks a theme, the page follows the system setting, live; other tabs stay in step. */
function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = window.matchMedia(SYSTEM_DARK);
  const followSystem = () => {
    if (readStoredTheme()) return;
    applyTheme(media.matches ? "dark" : "light");
    notify();
  };
  const followOtherTab = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    applyTheme(readStoredTheme() ?? (media.matches ? "dark" : "light"));
    notify();
  };
  media.addEventListener("change", followSystem);
  window.addEventListener("storage", followOtherTab);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", followSystem);
    window.removeEventListener("storage", followOtherTab);
  };
}

export function useTheme() {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => "light" as Theme);
  const toggleTheme = () => {
    const next: Theme = currentTheme() === "dark" ? "light" : "dark";
    applyTheme(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
    notify();
  };
  return { theme, toggleTheme };
}
