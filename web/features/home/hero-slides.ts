import type { HeroTone } from "../../../common/schemas/hero-slides.ts";

/** The slides' image sizes, also the server's preload of the first (web/routes/home.tsx). */
export const HERO_IMAGE_SIZES = "(min-width: 768px) 420px, 60vw";

/** A soft background wash per slide, light and dark: the owner picks one by name (written out for Tailwind). */
export const HERO_TONE_CLASSES: Record<HeroTone, string> = {
  green: "from-emerald-100 to-lime-50 dark:from-emerald-950 dark:to-stone-900",
  rose: "from-rose-100 to-amber-50 dark:from-rose-950 dark:to-stone-900",
  amber: "from-amber-100 to-orange-50 dark:from-amber-950 dark:to-stone-900",
  yellow: "from-yellow-100 to-stone-50 dark:from-yellow-950 dark:to-stone-900",
  pink: "from-pink-100 to-violet-50 dark:from-pink-950 dark:to-stone-900",
};
