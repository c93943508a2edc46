import { useCallback } from "react";
import { useNavigate } from "react-router";
import { REDUCED_MOTION } from "./use-media-query.ts";

/** The home page's sections that header, footer and buttons scroll to. */
export const SECTION_IDS = {
  bestSellers: "best-sellers",
  featured: "featured",
  combos: "combos",
  about: "about",
  contact: "contact",
} as const;

/** Scrolls to an element and moves keyboard focus there too, so the next Tab continues from it. */
export function scrollToElement(element: HTMLElement) {
  const smooth = !window.matchMedia(REDUCED_MOTION).matches;
  element.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
  element.focus({ preventScroll: true });
}

/**
 * Scrolls to a home-page section; from any other page it goes home first and the router's
 * scroll restoration scrolls to the #hash once the home page has rendered.
 */
export function useGoToSection() {
  const navigate = useNavigate();
  return useCallback(
    (id: string) => {
      const target = document.getElementById(id);
      if (target) scrollToElement(target);
      else navigate(`/#${id}`);
    },
    [navigate],
  );
}
