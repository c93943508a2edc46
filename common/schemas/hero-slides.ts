import { z } from "zod";
import { type ProductImage, UPLOADED_IMAGE_KEY } from "../catalogue.ts";
import { plainText } from "./text.ts";

/** The background washes a slide may have (web/features/home/hero.tsx draws each, light and dark). */
export const HERO_TONES = ["green", "rose", "amber", "yellow", "pink"] as const;
export type HeroTone = (typeof HERO_TONES)[number];

export const MAX_HERO_SLIDES = 10;

/** A slide as the home page shows it and the owner edits it. */
export type HeroSlide = {
  /** Its place in the list, 0 first: a stable key while the page shows it. */
  position: number;
  active: boolean;
  eyebrow: string;
  heading: string;
  text: string;
  buttonLabel: string;
  buttonTarget: string;
  image: ProductImage & { key: string };
  imageAlt: string;
  tone: HeroTone;
};

const line = (label: string, max: number) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const heroSlideInputSchema = z
  .object({
    active: z.boolean({ error: "Shown must be true or false." }),
    eyebrow: line("Label above the heading", 40),
    heading: line("Heading", 90),
    text: line("Text", 300),
    buttonLabel: line("Button label", 24),
    buttonTarget: plainText({ error: "Button target is required." })
      .trim()
      .max(200, "Button target must be at most 200 characters.")
      // A page of this shop: a path, never another site (no scheme, no "//host").
      .regex(
        /^\/(?![/\\])\S*$/,
        "Button target must be a page of the shop, starting with / (like /#featured).",
      ),
    image: z
      .string({ error: "Picture is required." })
      .regex(/^(uploads\/[0-9a-f]{32}|[a-z0-9-]{1,60})$/, "Picture must be an uploaded image."),
    imageAlt: line("Picture description", 200),
    tone: z.enum(HERO_TONES, { error: `Background must be one of ${HERO_TONES.join(", ")}.` }),
  })
  .strict();

export const updateHeroSlidesSchema = z
  .object({
    slides: z
      .array(heroSlideInputSchema, { error: "Slides must be a list." })
      .max(MAX_HERO_SLIDES, `At most ${MAX_HERO_SLIDES} slides.`)
      .refine((slides) => slides.some((slide) => slide.active), "Keep at least one slide shown."),
  })
  .strict();

export type HeroSlideInput = z.output<typeof heroSlideInputSchema>;
export type UpdateHeroSlides = z.input<typeof updateHeroSlidesSchema>;

export const isUploadedImage = (key: string) => UPLOADED_IMAGE_KEY.test(key);
