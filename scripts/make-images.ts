// Generates the catalogue illustrations (products and combos) as WebP files.
//
//   npx tsx scripts/make-images.ts
//
// For every image base name in the seed catalogue it draws an SVG (container
// front, contents-in-a-bowl view, or key-ingredients card) and renders it with
// sharp at 400x400 and 800x800 into web/public/images/catalogue/.
// Output is deterministic: re-running produces the same pictures.

import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { combos, products, type SeedProduct } from "../server/db/seed/catalogue.ts";

const OUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../web/public/images/catalogue");
const SIZES = [400, 800] as const;
const SERIF = "'DejaVu Serif', serif";
const SANS = "'DejaVu Sans', sans-serif";

// ---------------------------------------------------------------------------
// Palettes and per-product visual details

type Category = SeedProduct["category"];
type Palette = {
  primary: string; // container / accents
  dark: string; // text
  bgInner: string;
  bgOuter: string;
  soft: string; // decorative shapes
  label: string; // label paper
};

const PALETTES: Record<Category, Palette> = {
  haircare: {
    primary: "#1f5a3a",
    dark: "#143a26",
    bgInner: "#f3f8f2",
    bgOuter: "#cfe2d2",
    soft: "#9cc3a4",
    label: "#fbf8ef",
  },
  skincare: {
    primary: "#b0506a",
    dark: "#5e2233",
    bgInner: "#fff6f6",
    bgOuter: "#f2cfd7",
    soft: "#e6a3b4",
    label: "#fffaf7",
  },
  body: {
    primary: "#b07a2c",
    dark: "#5a3b12",
    bgInner: "#fdf8ee",
    bgOuter: "#ecd8b0",
    soft: "#d9b77a",
    label: "#fffbf2",
  },
  nutrition: {
    primary: "#c08612",
    dark: "#5b3a0a",
    bgInner: "#fffaea",
    bgOuter: "#f1dc9c",
    soft: "#ddb85a",
    label: "#fffcf1",
  },
};

type Container = "jar" | "amber" | "clear" | "dropper" | "pouch";

const CONTAINER_BY_SUBCATEGORY: Record<SeedProduct["subcategory"], Container> = {
  "Hair Oil": "amber",
  "Hair Serum": "dropper",
  "Hair Pack": "jar",
  "Hair Dye": "pouch",
  "Face Pack": "jar",
  "Face Oil": "dropper",
  "Face Wash": "jar",
  "Bath Powder": "pouch",
  "Body Oil": "clear",
  "Body Scrub": "jar",
  "Protein Mix": "jar",
  "Health Drinks": "jar",
  Powders: "pouch",
  Supplements: "jar",
};

type Form = "powder" | "oil";
type Garnish = "leaves" | "petals" | "chillies" | "almonds" | "hibiscus" | "grains";

type Visual = { ingredients: string[]; fill: string; form: Form; garnish: Garnish };

const VISUALS: Record<string, Visual> = {
  "natural-hair-dye": {
    ingredients: ["Henna leaf", "Indigo leaf", "Amla"],
    fill: "#6f7a2c",
    form: "powder",
    garnish: "leaves",
  },
  "badam-mix": {
    ingredients: ["Roasted almonds", "Pistachios", "Cardamom", "Saffron", "Palm jaggery"],
    fill: "#e2c38c",
    form: "powder",
    garnish: "almonds",
  },
  "bath-powder": {
    ingredients: ["Green gram", "Kasturi manjal", "Vetiver", "Rose petals", "Avaram flower", "Orange peel"],
    fill: "#d6bd72",
    form: "powder",
    garnish: "petals",
  },
  "beetroot-face-pack": {
    ingredients: ["Beetroot", "Multani mitti", "Rose petals", "Orange peel"],
    fill: "#a3395a",
    form: "powder",
    garnish: "petals",
  },
  "chilli-powder": {
    ingredients: ["Guntur chilli", "Byadgi chilli"],
    fill: "#b3261e",
    form: "powder",
    garnish: "chillies",
  },
  "immunity-booster": {
    ingredients: ["Turmeric", "Dry ginger", "Black pepper", "Tulsi", "Liquorice root", "Cinnamon"],
    fill: "#c98b2a",
    form: "powder",
    garnish: "leaves",
  },
  "face-glow-oil": {
    ingredients: ["Saffron", "Manjistha", "Sandalwood", "Liquorice", "Sesame oil", "Almond oil"],
    fill: "#c4531f",
    form: "oil",
    garnish: "petals",
  },
  "hair-conditioning-pack": {
    ingredients: ["Hibiscus", "Fenugreek", "Aloe vera", "Bhringraj", "Amla"],
    fill: "#5f7f3a",
    form: "powder",
    garnish: "hibiscus",
  },
  "hair-growth-oil": {
    ingredients: ["Coconut oil", "Sesame oil", "Bhringraj", "Curry leaves", "Hibiscus", "Amla"],
    fill: "#7b7420",
    form: "oil",
    garnish: "hibiscus",
  },
  "hair-growth-serum": {
    ingredients: ["Rosemary", "Kalonji", "Bhringraj", "Jojoba oil", "Argan oil"],
    fill: "#d9a93a",
    form: "oil",
    garnish: "leaves",
  },
  "protein-mix": {
    ingredients: ["Sprouted ragi", "Green gram", "Roasted chana", "Peanuts", "Almonds", "Flax seeds"],
    fill: "#b48a66",
    form: "powder",
    garnish: "grains",
  },
  "wax-powder": {
    ingredients: ["Kuppaimeni leaf", "Kasturi manjal", "Gram flour"],
    fill: "#b9a24a",
    form: "powder",
    garnish: "leaves",
  },
  "face-wash-powder": {
    ingredients: ["Green gram", "Rice flour", "Oats", "Rose petals", "Neem leaf"],
    fill: "#d8cb98",
    form: "powder",
    garnish: "petals",
  },
  "skin-brightening-pack": {
    ingredients: ["Kasturi manjal", "Sandalwood", "Masoor dal", "Liquorice root", "Saffron"],
    fill: "#e0a846",
    form: "powder",
    garnish: "petals",
  },
  "kids-bath-powder": {
    ingredients: ["Green gram", "Rice", "Almonds", "Rose petals", "Vetiver", "Fennel"],
    fill: "#e6d8a6",
    form: "powder",
    garnish: "petals",
  },
  "hair-wash-powder": {
    ingredients: ["Shikakai", "Soapnut (reetha)", "Amla", "Fenugreek", "Hibiscus leaf", "Green gram"],
    fill: "#8b6b3b",
    form: "powder",
    garnish: "hibiscus",
  },
  "moringa-powder": {
    ingredients: ["Moringa leaf"],
    fill: "#5e8a2e",
    form: "powder",
    garnish: "leaves",
  },
  "curry-leaves-powder": {
    ingredients: ["Curry leaves", "Urad dal", "Chana dal", "Red chilli", "Black pepper", "Garlic"],
    fill: "#6d6a2e",
    form: "powder",
    garnish: "leaves",
  },
  "sathu-maavu": {
    ingredients: ["Ragi", "Bajra", "Jowar", "Wheat", "Brown rice", "Green gram"],
    fill: "#a67f5d",
    form: "powder",
    garnish: "grains",
  },
  "abc-malt": {
    ingredients: ["Apple", "Beetroot", "Carrot", "Ragi malt", "Palm jaggery"],
    fill: "#a8566a",
    form: "powder",
    garnish: "grains",
  },
  "coconut-oil": {
    ingredients: ["Sun-dried copra"],
    fill: "#f1e3ae",
    form: "oil",
    garnish: "leaves",
  },
};

function visualFor(p: SeedProduct): Visual {
  return (
    VISUALS[p.slug] ?? { ingredients: [], fill: PALETTES[p.category].soft, form: "powder", garnish: "leaves" }
  );
}

function packSize(p: SeedProduct): string {
  const m = p.description.match(/(\d+)\s?(g|ml)\b[^.]*\.?\s*$/);
  return m ? `${m[1]} ${m[2]}` : "";
}

// ---------------------------------------------------------------------------
// Small helpers

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function rng(seedText: string): () => number {
  let h = 2166136261;
  for (const ch of seedText) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let s = h >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function shade(hex: string, amount: number): string {
  // amount in [-1, 1]: negative darkens, positive lightens
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) =>
    Math.round(amount < 0 ? c * (1 + amount) : c + (255 - c) * amount),
  );
  return `#${ch.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** Split words into `n` lines minimising the longest line (by characters). */
function splitLines(words: string[], n: number): string[] {
  if (n <= 1 || words.length <= 1) return [words.join(" ")];
  let best: string[] = [words.join(" ")];
  let bestLen = Number.POSITIVE_INFINITY;
  const rec = (start: number, left: number, acc: string[]) => {
    if (left === 1) {
      const lines = [...acc, words.slice(start).join(" ")];
      const len = Math.max(...lines.map((l) => l.length));
      if (len < bestLen) {
        bestLen = len;
        best = lines;
      }
      return;
    }
    for (let i = start + 1; i <= words.length - left + 1; i++) {
      rec(i, left - 1, [...acc, words.slice(start, i).join(" ")]);
    }
  };
  rec(0, Math.min(n, words.length), []);
  return best;
}

// Approximate advance widths (in em) for DejaVu fonts, which are wide.
const SERIF_BOLD_EM = 0.66;
const SANS_EM = 0.6;

/** Wrap text to fit a box, returning the lines and the font size to use. */
function fitText(
  text: string,
  width: number,
  height: number,
  maxFont: number,
  maxLines: number,
  em = SERIF_BOLD_EM,
  lineHeight = 1.15,
): { lines: string[]; size: number } {
  const words = text.split(/\s+/);
  let best = { lines: [text], size: 0 };
  for (let n = 1; n <= Math.min(maxLines, words.length); n++) {
    const lines = splitLines(words, n);
    const longest = Math.max(...lines.map((l) => l.length));
    const size = Math.min(maxFont, width / (longest * em), height / (lines.length * lineHeight));
    if (size > best.size + 0.5) best = { lines, size };
  }
  return { lines: best.lines, size: Math.floor(best.size) };
}

function textLines(
  lines: string[],
  x: number,
  firstBaseline: number,
  size: number,
  attrs: string,
  lineHeight = 1.15,
): string {
  return lines
    .map(
      (l, i) =>
        `<text x="${x}" y="${(firstBaseline + i * size * lineHeight).toFixed(1)}" font-size="${size}" ${attrs}>${esc(l)}</text>`,
    )
    .join("");
}

function leafPath(len: number): string {
  const w = len * 0.36;
  return `M0 0 C ${len * 0.25} ${-w} ${len * 0.75} ${-w} ${len} 0 C ${len * 0.75} ${w} ${len * 0.25} ${w} 0 0 Z`;
}

function leaf(x: number, y: number, len: number, angle: number, color: string, opacity = 1): string {
  return `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)})" opacity="${opacity}">
    <path d="${leafPath(len)}" fill="${color}"/>
    <path d="M${len * 0.05} 0 L${len * 0.92} 0" stroke="${shade(color, -0.3)}" stroke-width="${Math.max(1.2, len * 0.03)}" stroke-linecap="round" opacity="0.6"/>
  </g>`;
}

function sprig(x: number, y: number, scale: number, angle: number, color: string, opacity: number): string {
  const leaves: string[] = [];
  for (let i = 0; i < 5; i++) {
    const t = i * 38;
    leaves.push(leaf(t + 10, -4, 46, -38, color));
    leaves.push(leaf(t + 10, 4, 46, 38, color));
  }
  leaves.push(leaf(196, 0, 52, 0, color));
  return `<g transform="translate(${x} ${y}) rotate(${angle}) scale(${scale})" opacity="${opacity}">
    <path d="M0 0 L200 0" stroke="${shade(color, -0.25)}" stroke-width="4" stroke-linecap="round"/>
    ${leaves.join("")}
  </g>`;
}

// ---------------------------------------------------------------------------
// Shared SVG pieces

function defs(pal: Palette): string {
  return `<defs>
    <radialGradient id="bg" cx="50%" cy="42%" r="75%">
      <stop offset="0%" stop-color="${pal.bgInner}"/>
      <stop offset="100%" stop-color="${pal.bgOuter}"/>
    </radialGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0%" stop-color="${pal.bgOuter}" stop-opacity="0"/>
      <stop offset="100%" stop-color="${shade(pal.bgOuter, -0.12)}" stop-opacity="0.7"/>
    </linearGradient>
    <linearGradient id="gloss" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0%" stop-color="#000" stop-opacity="0.18"/>
      <stop offset="18%" stop-color="#fff" stop-opacity="0.28"/>
      <stop offset="32%" stop-color="#fff" stop-opacity="0"/>
      <stop offset="78%" stop-color="#000" stop-opacity="0"/>
      <stop offset="100%" stop-color="#000" stop-opacity="0.22"/>
    </linearGradient>
    <linearGradient id="amberGlass" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0%" stop-color="#5a2a08"/>
      <stop offset="45%" stop-color="#a55a16"/>
      <stop offset="100%" stop-color="#4a2206"/>
    </linearGradient>
    <filter id="blur" x="-30%" y="-100%" width="160%" height="300%">
      <feGaussianBlur stdDeviation="10"/>
    </filter>
    <filter id="softShadow" x="-20%" y="-20%" width="140%" height="140%">
      <feGaussianBlur stdDeviation="8"/>
    </filter>
  </defs>`;
}

function background(pal: Palette, seed: string): string {
  const r = rng(`bg-${seed}`);
  const a1 = -30 + r() * 20;
  const a2 = 200 + r() * 20;
  return `<rect width="800" height="800" fill="url(#bg)"/>
  <circle cx="400" cy="380" r="270" fill="#fff" opacity="0.45"/>
  <circle cx="${680 + r() * 40}" cy="${110 + r() * 30}" r="90" fill="${pal.soft}" opacity="0.18"/>
  <circle cx="${90 + r() * 30}" cy="${700 + r() * 30}" r="120" fill="${pal.soft}" opacity="0.16"/>
  <rect y="560" width="800" height="240" fill="url(#floor)"/>
  ${sprig(-30, 130, 0.95, a1, pal.soft, 0.45)}
  ${sprig(830, 690, 0.95, a2, pal.soft, 0.45)}`;
}

function groundShadow(cx: number, cy: number, rx: number): string {
  return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${rx * 0.13}" fill="#000" opacity="0.22" filter="url(#blur)"/>`;
}

function svgDoc(size: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 800 800">${body}</svg>`;
}

// ---------------------------------------------------------------------------
// Labels

type Box = { x: number; y: number; w: number; h: number };

function frontLabel(p: SeedProduct, pal: Palette, box: Box, compact = false): string {
  const padX = box.w * 0.08;
  const inner = box.w - padX * 2;
  const cx = box.x + box.w / 2;
  const tagSize = Math.max(9, Math.min(15, inner / (16 * SANS_EM)));
  const pack = packSize(p);
  const subText = `${p.subcategory.toUpperCase()}${pack ? ` · ${pack}` : ""}`;
  // letter-spacing of 1 unit per character is added to the glyph advance
  const subSize = Math.max(7, Math.min(16, (inner - subText.length) / (subText.length * SANS_EM)));
  const top = box.y + box.h * 0.1;
  const tagBaseline = top + tagSize;
  const bottomReserve = subSize * 2.6;
  const nameTop = tagBaseline + tagSize * 1.1;
  const nameAreaH = box.y + box.h - box.h * 0.08 - bottomReserve - nameTop;
  const fit = fitText(p.name, inner, nameAreaH, compact ? 40 : 46, 3);
  const lh = 1.12;
  const block = fit.lines.length * fit.size * lh;
  const nameFirst = nameTop + (nameAreaH - block) / 2 + fit.size * 0.85;
  const nameBottom = nameFirst + (fit.lines.length - 1) * fit.size * lh + fit.size * 0.3;
  const ruleY = nameBottom + subSize * 0.7;
  return `<g>
    <rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="${Math.min(14, box.w * 0.06)}" fill="${pal.label}"/>
    <rect x="${box.x + 5}" y="${box.y + 5}" width="${box.w - 10}" height="${box.h - 10}" rx="${Math.min(10, box.w * 0.05)}" fill="none" stroke="${pal.primary}" stroke-width="1.5" opacity="0.55"/>
    ${leaf(cx - tagSize * 4.7, tagBaseline - tagSize * 0.35, tagSize * 1.2, -150, pal.primary)}
    ${leaf(cx + tagSize * 4.7, tagBaseline - tagSize * 0.35, tagSize * 1.2, -30, pal.primary)}
    <text x="${cx}" y="${tagBaseline}" font-family="${SANS}" font-size="${tagSize}" letter-spacing="1.5" fill="${pal.primary}" text-anchor="middle" font-weight="bold">NATURAL</text>
    ${textLines(fit.lines, cx, nameFirst, fit.size, `font-family="${SERIF}" font-weight="bold" fill="${pal.dark}" text-anchor="middle"`, lh)}
    <line x1="${cx - inner * 0.28}" y1="${ruleY}" x2="${cx + inner * 0.28}" y2="${ruleY}" stroke="${pal.primary}" stroke-width="1.5" opacity="0.7"/>
    <text x="${cx}" y="${ruleY + subSize * 1.35}" font-family="${SANS}" font-size="${subSize}" letter-spacing="1" fill="${pal.primary}" text-anchor="middle">${esc(subText)}</text>
  </g>`;
}

// ---------------------------------------------------------------------------
// Containers. Each is drawn centred on x=0 with its base on y=0 and returns
// the SVG plus its natural height (used for scaling).

function jar(p: SeedProduct, pal: Palette, compact: boolean): string {
  const body = p.category === "skincare" ? "#fbf3f1" : p.category === "nutrition" ? "#f6ead0" : "#f7f1e6";
  return `<g>
    <rect x="-160" y="-300" width="320" height="300" rx="34" fill="${body}"/>
    <rect x="-160" y="-300" width="320" height="300" rx="34" fill="url(#gloss)"/>
    <rect x="-150" y="-318" width="300" height="26" rx="8" fill="${shade(body, -0.12)}"/>
    <rect x="-170" y="-392" width="340" height="84" rx="18" fill="${pal.primary}"/>
    <rect x="-170" y="-392" width="340" height="84" rx="18" fill="url(#gloss)"/>
    ${Array.from({ length: 15 }, (_, i) => `<rect x="${-158 + i * 22}" y="-380" width="6" height="62" rx="3" fill="#000" opacity="0.12"/>`).join("")}
    ${frontLabel(p, pal, { x: -136, y: -262, w: 272, h: 232 }, compact)}
    <rect x="-160" y="-300" width="320" height="300" rx="34" fill="none" stroke="#000" stroke-opacity="0.08" stroke-width="2"/>
  </g>`;
}
const JAR_H = 392;

function bottle(p: SeedProduct, pal: Palette, compact: boolean, clear: boolean): string {
  const v = visualFor(p);
  const outline =
    "M-115 -20 Q-115 0 -95 0 L95 0 Q115 0 115 -20 L115 -330 Q115 -380 45 -405 L40 -440 L-40 -440 L-45 -405 Q-115 -380 -115 -330 Z";
  const glass = clear
    ? `<path d="${outline}" fill="#eef3ee" opacity="0.9"/>
       <path d="M-108 -16 Q-108 -6 -92 -6 L92 -6 Q108 -6 108 -16 L108 -345 L-108 -345 Z" fill="${v.fill}" opacity="0.95"/>
       <rect x="-108" y="-352" width="216" height="10" fill="${shade(v.fill, 0.35)}"/>`
    : `<path d="${outline}" fill="url(#amberGlass)"/>`;
  return `<g>
    ${glass}
    <path d="${outline}" fill="url(#gloss)"/>
    <path d="${outline}" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>
    <rect x="-52" y="-500" width="104" height="66" rx="10" fill="${pal.primary}"/>
    <rect x="-52" y="-500" width="104" height="66" rx="10" fill="url(#gloss)"/>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="${-44 + i * 12}" y="-492" width="4" height="50" rx="2" fill="#000" opacity="0.14"/>`).join("")}
    ${frontLabel(p, pal, { x: -100, y: -300, w: 200, h: 240 }, compact)}
  </g>`;
}
const BOTTLE_H = 500;

function dropper(p: SeedProduct, pal: Palette, compact: boolean): string {
  const outline =
    "M-112 -18 Q-112 0 -94 0 L94 0 Q112 0 112 -18 L112 -270 Q112 -318 42 -332 L36 -352 L-36 -352 L-42 -332 Q-112 -318 -112 -270 Z";
  return `<g>
    <path d="${outline}" fill="url(#amberGlass)"/>
    <path d="${outline}" fill="url(#gloss)"/>
    <path d="${outline}" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>
    <rect x="-50" y="-410" width="100" height="64" rx="8" fill="#c9a54a"/>
    <rect x="-50" y="-410" width="100" height="64" rx="8" fill="url(#gloss)"/>
    <path d="M-34 -408 L-34 -460 Q-34 -520 0 -520 Q34 -520 34 -460 L34 -408 Z" fill="${pal.dark}"/>
    <path d="M-34 -408 L-34 -460 Q-34 -520 0 -520 Q34 -520 34 -460 L34 -408 Z" fill="url(#gloss)"/>
    ${frontLabel(p, pal, { x: -98, y: -262, w: 196, h: 228 }, compact)}
  </g>`;
}
const DROPPER_H = 520;

function pouch(p: SeedProduct, pal: Palette, compact: boolean): string {
  const kraft = p.category === "nutrition";
  const base = kraft ? "#c89b6a" : pal.primary;
  const outline = "M-165 -470 L165 -470 L158 -40 Q150 0 110 0 L-110 0 Q-150 0 -158 -40 Z";
  return `<g>
    <path d="${outline}" fill="${base}"/>
    <path d="${outline}" fill="url(#gloss)"/>
    <rect x="-165" y="-470" width="330" height="34" fill="#000" opacity="0.12"/>
    ${Array.from({ length: 22 }, (_, i) => `<rect x="${-160 + i * 15}" y="-466" width="2" height="26" fill="#fff" opacity="0.18"/>`).join("")}
    <path d="M-158 -412 L158 -412" stroke="#000" stroke-opacity="0.18" stroke-width="4" stroke-dasharray="2 0"/>
    <path d="M-158 -408 L158 -408" stroke="#fff" stroke-opacity="0.2" stroke-width="2"/>
    <path d="M-165 -444 l14 7 l-14 7 Z" fill="${pal.bgInner}"/>
    <path d="M-150 -30 Q0 -58 150 -30" stroke="#000" stroke-opacity="0.12" stroke-width="3" fill="none"/>
    ${frontLabel(p, pal, { x: -130, y: -380, w: 260, h: 300 }, compact)}
    <path d="${outline}" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>
  </g>`;
}
const POUCH_H = 470;

function containerSvg(p: SeedProduct, compact = false): { svg: string; h: number; w: number } {
  const pal = PALETTES[p.category];
  switch (CONTAINER_BY_SUBCATEGORY[p.subcategory]) {
    case "jar":
      return { svg: jar(p, pal, compact), h: JAR_H, w: 340 };
    case "amber":
      return { svg: bottle(p, pal, compact, false), h: BOTTLE_H, w: 230 };
    case "clear":
      return { svg: bottle(p, pal, compact, true), h: BOTTLE_H, w: 230 };
    case "dropper":
      return { svg: dropper(p, pal, compact), h: DROPPER_H, w: 224 };
    default:
      return { svg: pouch(p, pal, compact), h: POUCH_H, w: 330 };
  }
}

function placeContainer(p: SeedProduct, cx: number, baseY: number, targetH: number, compact = false): string {
  const c = containerSvg(p, compact);
  const s = targetH / c.h;
  return `${groundShadow(cx, baseY, (c.w / 2) * s * 1.15)}
  <g transform="translate(${cx} ${baseY}) scale(${s.toFixed(4)})">${c.svg}</g>`;
}

// ---------------------------------------------------------------------------
// View 1: front of the container

function frontView(p: SeedProduct): string {
  const pal = PALETTES[p.category];
  const kind = CONTAINER_BY_SUBCATEGORY[p.subcategory];
  const targetH = kind === "jar" ? 450 : 540;
  return `${defs(pal)}${background(pal, p.slug)}${placeContainer(p, 400, 690, targetH)}`;
}

// ---------------------------------------------------------------------------
// View 2: the contents in a bowl with garnish around it

function garnishItem(kind: Garnish, x: number, y: number, a: number, s: number, pal: Palette): string {
  const t = `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${a.toFixed(1)}) scale(${s.toFixed(2)})`;
  switch (kind) {
    case "petals":
      return `<g transform="${t}"><ellipse cx="0" cy="0" rx="26" ry="15" fill="#e07a93"/><ellipse cx="-4" cy="-3" rx="14" ry="6" fill="#f4b3c3" opacity="0.8"/></g>`;
    case "hibiscus":
      return `<g transform="${t}">${[0, 72, 144, 216, 288]
        .map((r) => `<ellipse cx="0" cy="-22" rx="15" ry="24" fill="#c8233b" transform="rotate(${r})"/>`)
        .join(
          "",
        )}<circle r="8" fill="#7a0f20"/><path d="M0 0 L14 -30" stroke="#f2c94c" stroke-width="3"/></g>`;
    case "chillies":
      return `<g transform="${t}"><path d="M0 0 C 20 -14 60 -10 86 8 C 60 0 24 6 0 10 Z" fill="#b3261e"/><path d="M0 0 C -6 -4 -12 -10 -14 -18" stroke="#3f6b2a" stroke-width="5" fill="none" stroke-linecap="round"/></g>`;
    case "almonds":
      return `<g transform="${t}"><ellipse rx="24" ry="14" fill="#a8672f"/><path d="M-18 -2 Q0 -8 18 -2" stroke="#7a4519" stroke-width="2" fill="none"/><ellipse cx="-6" cy="-5" rx="8" ry="3" fill="#fff" opacity="0.25"/></g>`;
    case "grains":
      return `<g transform="${t}">${[
        [0, 0],
        [14, 6],
        [-12, 8],
        [4, 16],
        [-4, -12],
      ]
        .map(
          ([gx, gy]) => `<ellipse cx="${gx}" cy="${gy}" rx="6" ry="4" fill="${shade(pal.primary, -0.1)}"/>`,
        )
        .join("")}</g>`;
    default:
      return leaf(x, y, 60 * s, a, "#4f8a3a");
  }
}

function bowlView(p: SeedProduct): string {
  const pal = PALETTES[p.category];
  const v = visualFor(p);
  const r = rng(p.slug);
  const cx = 400;
  const rimY = 500;
  const rx = 250;
  const ry = 62;
  const bowlColor = p.category === "nutrition" ? "#b5653a" : "#f4efe6"; // terracotta or ceramic
  const speck: string[] = [];
  let contents: string;
  if (v.form === "oil") {
    contents = `<ellipse cx="${cx}" cy="${rimY + 6}" rx="${rx - 22}" ry="${ry - 14}" fill="${v.fill}"/>
      <ellipse cx="${cx - 60}" cy="${rimY - 4}" rx="70" ry="12" fill="#fff" opacity="0.35"/>
      <ellipse cx="${cx + 90}" cy="${rimY + 14}" rx="24" ry="5" fill="#fff" opacity="0.25"/>`;
  } else {
    const moundTop = rimY - 115;
    // heap rising from the rim, closed along the front half of the rim ellipse
    const l = cx - rx + 10;
    const rr = cx + rx - 10;
    contents = `<path d="M${l} ${rimY} C${l + 70} ${rimY - 50} ${cx - 100} ${moundTop} ${cx} ${moundTop} C${cx + 100} ${moundTop} ${rr - 70} ${rimY - 50} ${rr} ${rimY} A${rx - 10} ${ry - 4} 0 0 1 ${l} ${rimY} Z" fill="${v.fill}"/>
      <path d="M${cx - 150} ${rimY - 34} Q${cx - 80} ${moundTop + 14} ${cx - 10} ${moundTop + 8}" stroke="#fff" stroke-opacity="0.25" stroke-width="14" fill="none" stroke-linecap="round"/>`;
    for (let i = 0; i < 70; i++) {
      const t = r();
      const px = cx - rx + 40 + t * (rx * 2 - 80);
      const edge = rimY - (1 - ((px - cx) / (rx - 20)) ** 2) * 115;
      const py = edge + 8 + r() * (rimY - edge - 4);
      speck.push(
        `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="${(1.5 + r() * 2.5).toFixed(1)}" fill="${shade(v.fill, r() > 0.5 ? -0.25 : 0.25)}" opacity="0.7"/>`,
      );
    }
  }
  const garnish: string[] = [];
  const spots: [number, number, number][] = [
    [130, 640, -20],
    [670, 650, 200],
    [215, 722, 15],
    [585, 728, 170],
    [95, 520, -60],
    [715, 530, 230],
  ];
  for (const [gx, gy, ga] of spots) {
    const useLeaf = v.garnish === "leaves" || r() < 0.35;
    garnish.push(
      useLeaf
        ? leaf(gx, gy, 70 + r() * 30, ga + r() * 30, r() > 0.5 ? "#4f8a3a" : "#6da24c")
        : garnishItem(
            v.garnish,
            gx,
            gy,
            ga + r() * 40,
            (v.garnish === "hibiscus" ? 0.75 : 1) + r() * 0.3,
            pal,
          ),
    );
  }
  const caption = fitText(p.name, 600, 60, 44, 1);
  const sub = v.ingredients.slice(0, 3).join(" · ");
  const subFit = fitText(sub, 620, 30, 22, 1, SANS_EM);
  return `${defs(pal)}${background(pal, `${p.slug}-2`)}
    ${garnish.slice(4).join("")}
    <ellipse cx="${cx}" cy="${rimY + 175}" rx="${rx + 10}" ry="30" fill="#000" opacity="0.22" filter="url(#blur)"/>
    <path d="M${cx - rx} ${rimY} Q${cx - rx + 10} ${rimY + 170} ${cx} ${rimY + 175} Q${cx + rx - 10} ${rimY + 170} ${cx + rx} ${rimY} Z" fill="${bowlColor}"/>
    <path d="M${cx - rx} ${rimY} Q${cx - rx + 10} ${rimY + 170} ${cx} ${rimY + 175} Q${cx + rx - 10} ${rimY + 170} ${cx + rx} ${rimY} Z" fill="url(#gloss)"/>
    <path d="M${cx - rx + 30} ${rimY + 50} Q${cx} ${rimY + 85} ${cx + rx - 30} ${rimY + 50}" stroke="${pal.primary}" stroke-width="6" fill="none" opacity="0.55"/>
    <ellipse cx="${cx}" cy="${rimY}" rx="${rx}" ry="${ry}" fill="${v.form === "oil" ? shade(bowlColor, -0.2) : shade(v.fill, -0.12)}"/>
    <path d="M${cx - rx} ${rimY} A${rx} ${ry} 0 0 1 ${cx + rx} ${rimY}" fill="none" stroke="${shade(bowlColor, 0.15)}" stroke-width="8"/>
    ${contents}
    ${speck.join("")}
    <path d="M${cx - rx} ${rimY} A${rx} ${ry} 0 0 0 ${cx + rx} ${rimY}" fill="none" stroke="${shade(bowlColor, 0.15)}" stroke-width="8"/>
    ${garnish.slice(0, 4).join("")}
    <text x="400" y="112" font-family="${SERIF}" font-weight="bold" font-size="${caption.size}" fill="${pal.dark}" text-anchor="middle">${esc(caption.lines[0] ?? p.name)}</text>
    ${sub ? `<text x="400" y="160" font-family="${SANS}" font-size="${subFit.size}" letter-spacing="1" fill="${pal.primary}" text-anchor="middle">${esc(sub)}</text>` : ""}`;
}

// ---------------------------------------------------------------------------
// View 3: the product beside a back-label card listing key ingredients

function ingredientsView(p: SeedProduct): string {
  const pal = PALETTES[p.category];
  const v = visualFor(p);
  const kind = CONTAINER_BY_SUBCATEGORY[p.subcategory];
  const card: Box = { x: 395, y: 130, w: 350, h: 540 };
  const items = v.ingredients.slice(0, 6);
  const pad = 34;
  const itemFont = Math.min(
    30,
    Math.floor((card.w - pad * 2 - 40) / (Math.max(...items.map((s) => s.length)) * SANS_EM)),
  );
  const regionTop = card.y + 150;
  const regionBottom = card.y + card.h - 100;
  const step = Math.min(66, (regionBottom - regionTop) / Math.max(1, items.length));
  const listTop =
    regionTop + (regionBottom - regionTop - step * items.length) / 2 + step / 2 + itemFont * 0.35;
  const list = items
    .map((name, i) => {
      const y = listTop + i * step;
      return `${leaf(card.x + pad, y - itemFont * 0.35, 26, -20, pal.primary)}
        <text x="${card.x + pad + 40}" y="${y}" font-family="${SANS}" font-size="${itemFont}" fill="${pal.dark}">${esc(name)}</text>`;
    })
    .join("");
  const pack = packSize(p);
  const title = fitText("Key ingredients", card.w - pad * 2, 40, 34, 1);
  const nameFit = fitText(p.name, card.w - pad * 2, 30, 24, 1, SANS_EM);
  return `${defs(pal)}${background(pal, `${p.slug}-3`)}
    ${placeContainer(p, 205, 690, kind === "jar" ? 340 : 440, true)}
    <rect x="${card.x + 6}" y="${card.y + 12}" width="${card.w}" height="${card.h}" rx="24" fill="#000" opacity="0.18" filter="url(#softShadow)"/>
    <rect x="${card.x}" y="${card.y}" width="${card.w}" height="${card.h}" rx="24" fill="${pal.label}"/>
    <rect x="${card.x}" y="${card.y}" width="${card.w}" height="14" rx="7" fill="${pal.primary}"/>
    <text x="${card.x + pad}" y="${card.y + 74}" font-family="${SERIF}" font-weight="bold" font-size="${title.size}" fill="${pal.dark}">Key ingredients</text>
    <text x="${card.x + pad}" y="${card.y + 114}" font-family="${SANS}" font-size="${nameFit.size}" fill="${pal.primary}">${esc(p.name)}</text>
    <line x1="${card.x + pad}" y1="${card.y + 136}" x2="${card.x + card.w - pad}" y2="${card.y + 136}" stroke="${pal.primary}" stroke-opacity="0.4" stroke-width="2"/>
    ${list}
    <line x1="${card.x + pad}" y1="${card.y + card.h - 82}" x2="${card.x + card.w - pad}" y2="${card.y + card.h - 82}" stroke="${pal.primary}" stroke-opacity="0.4" stroke-width="2"/>
    <text x="${card.x + pad}" y="${card.y + card.h - 44}" font-family="${SANS}" font-size="22" fill="${pal.dark}">Net content</text>
    <text x="${card.x + card.w - pad}" y="${card.y + card.h - 44}" font-family="${SANS}" font-size="22" font-weight="bold" fill="${pal.dark}" text-anchor="end">${esc(pack)}</text>`;
}

// ---------------------------------------------------------------------------
// Combos: three containers side by side under the title

function comboView(combo: (typeof combos)[number]): string {
  const items = combo.productSlugs.map((slug) => {
    const p = products.find((x) => x.slug === slug);
    if (!p) throw new Error(`combo ${combo.id}: unknown product ${slug}`);
    return p;
  });
  const first = items[0] as SeedProduct;
  const pal = PALETTES[first.category];
  const xs = [160, 400, 640];
  const order = [0, 2, 1]; // draw the middle one last so it sits in front
  const drawn = order
    .map((i) => {
      const p = items[i] as SeedProduct;
      const c = containerSvg(p, true);
      const front = i === 1 ? 1.1 : 1;
      // fit into a slot about 220 px wide and 400 px tall
      const h = Math.min(400, (220 * c.h) / c.w) * front;
      return placeContainer(p, xs[i] as number, i === 1 ? 730 : 700, h, true);
    })
    .join("");
  const title = fitText(combo.title, 640, 60, 52, 1);
  const save = (combo.originalPricePaise - combo.salePricePaise) / 100;
  const pill = `${combo.badge.toUpperCase()}`;
  const pillW = pill.length * 15 * 0.68 + 44;
  return `${defs(pal)}${background(pal, combo.id)}
    <rect x="${400 - pillW / 2}" y="58" width="${pillW}" height="38" rx="19" fill="${pal.primary}"/>
    <text x="400" y="83" font-family="${SANS}" font-weight="bold" font-size="15" letter-spacing="1.5" fill="#fff" text-anchor="middle">${esc(pill)}</text>
    <text x="400" y="${150 + title.size * 0.1}" font-family="${SERIF}" font-weight="bold" font-size="${title.size}" fill="${pal.dark}" text-anchor="middle">${esc(combo.title)}</text>
    <text x="400" y="196" font-family="${SANS}" font-size="24" fill="${pal.primary}" text-anchor="middle">3 products · save ₹${save}</text>
    ${drawn}`;
}

// ---------------------------------------------------------------------------

async function render(base: string, body: string): Promise<number> {
  let bytes = 0;
  for (const size of SIZES) {
    const svg = Buffer.from(svgDoc(size, body));
    const out = path.join(OUT_DIR, `${base}-${size}.webp`);
    const info = await sharp(svg).webp({ quality: 80, effort: 6 }).toFile(out);
    bytes += info.size;
  }
  return bytes;
}

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  let files = 0;
  let bytes = 0;
  for (const p of products) {
    for (const [i, base] of p.images.entries()) {
      const view = i === 0 ? frontView(p) : i === 1 ? bowlView(p) : ingredientsView(p);
      bytes += await render(base, view);
      files += SIZES.length;
    }
  }
  for (const c of combos) {
    bytes += await render(c.image, comboView(c));
    files += SIZES.length;
  }
  console.log(`wrote ${files} images (${(bytes / 1024).toFixed(0)} kB) to ${OUT_DIR}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
