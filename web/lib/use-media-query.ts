import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches now; re-renders when it changes (resizes, system settings). The server
 * cannot know, so it renders (and hydration starts from) `onServer`.
 */
export function useMediaQuery(query: string, onServer = false): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => onServer,
  );
}

export const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
