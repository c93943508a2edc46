/**
 * WCAG 2.x contrast, as the success criteria define it (relative luminance of sRGB colours, then
 * (L1 + 0.05) / (L2 + 0.05)). Written out here because the formula is short and fixed by the standard,
 * and the shop's installed packages have no contrast function (see docs/decisions/068).
 */

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** #rrggbb -> relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** The contrast ratio of two #rrggbb colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG AA for normal-size text. */
export const TEXT_CONTRAST_AA = 4.5;

/** The dark page (stone-900), where dark mode sets the brand's light tint as text. */
export const DARK_PAGE = "#1c1917";

export const BRAND_SHADES = ["50", "100", "600", "700", "800", "900"] as const;
export type BrandPalette = Record<(typeof BRAND_SHADES)[number], string>;

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
const rgbOf = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
/** `share` of `hex` mixed with the rest of `other`, channel by channel. */
const mix = (hex: string, other: string, share: number) => {
  const [a, b] = [rgbOf(hex), rgbOf(other)];
  return toHex(a.map((c, i) => c * share + (b[i] as number) * (1 - share)));
};

/**
 * The shades the pages use (Tailwind's brand-50 ... brand-900) made from the one colour the owner picks,
 * which becomes brand-700 (buttons, links, headings): tints with white above it, shades with black below.
 */
export function brandPalette(hex: string): BrandPalette {
  return {
    "50": mix(hex, "#ffffff", 0.06),
    "100": mix(hex, "#ffffff", 0.15),
    "600": mix(hex, "#ffffff", 0.88),
    "700": hex,
    "800": mix(hex, "#000000", 0.8),
    "900": mix(hex, "#000000", 0.6),
  };
}

export type BrandContrast = {
  /** Each pairing the pages use, with its ratio. */
  pairs: { where: string; ratio: number }[];
  /** Why the colour cannot be used (the first pairing below 4.5:1), or null. */
  problem: string | null;
};

const ratioText = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

/**
 * The brand colour checked as the pages use it, in light and dark mode: every pairing of text and
 * background must reach WCAG AA for normal text (4.5:1), or the colour is refused with the reason.
 */
export function checkBrandColour(hex: string): BrandContrast {
  const shade = brandPalette(hex);
  const pairs = [
    { where: "White text on buttons in this colour", ratio: contrastRatio("#ffffff", shade["700"]) },
    {
      where: "White text on dark-mode buttons (its lighter shade)",
      ratio: contrastRatio("#ffffff", shade["600"]),
    },
    {
      where: "Text in this colour on its pale tint (light mode)",
      ratio: contrastRatio(shade["700"], shade["100"]),
    },
    {
      where: "Its pale tint as text on the dark page (dark mode)",
      ratio: contrastRatio(shade["100"], DARK_PAGE),
    },
    {
      where: "Its pale tint as text on its darkest shade (dark mode)",
      ratio: contrastRatio(shade["100"], shade["900"]),
    },
  ];
  const failing = pairs.find((pair) => pair.ratio < TEXT_CONTRAST_AA);
  return {
    pairs,
    problem: failing
      ? `${failing.where} would be hard to read (a contrast of ${ratioText(failing.ratio)}, where text needs at least 4.5:1). Choose a darker colour.`
      : null,
  };
}
