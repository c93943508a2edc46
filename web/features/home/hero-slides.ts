import { imageFor, type ProductImage } from "../../../common/catalogue.ts";

export type HeroSlide = {
  eyebrow: string;
  title: string;
  text: string;
  image: ProductImage;
  imageAlt: string;
  /** A soft background wash per slide, light and dark. */
  tone: string;
};

/** The slides' image sizes, also the server's preload of the first (web/routes/home.tsx). */
export const HERO_IMAGE_SIZES = "(min-width: 768px) 420px, 60vw";

/** Five slides, one per range, written from the products' own descriptions. */
export const HERO_SLIDES: HeroSlide[] = [
  {
    eyebrow: "Hair care",
    title: "Stronger roots, the way our grandmothers knew",
    text: "Hair Growth Oil is slow-cooked in cold-pressed coconut and sesame oil with bhringraj, curry leaves, hibiscus and amla. Massage it in, leave it overnight, and let tradition do the rest.",
    image: imageFor("hair-growth-oil-1"),
    imageAlt: "A bottle of Hair Growth Oil",
    tone: "from-emerald-100 to-lime-50 dark:from-emerald-950 dark:to-stone-900",
  },
  {
    eyebrow: "Face care",
    title: "A saffron glow, without the chemicals",
    text: "Face Glow Oil is a kumkumadi-style blend of saffron, manjistha, sandalwood and liquorice. Three drops at night, pressed onto damp skin, and you wake up glowing.",
    image: imageFor("face-glow-oil-1"),
    imageAlt: "A dropper bottle of Face Glow Oil",
    tone: "from-rose-100 to-amber-50 dark:from-rose-950 dark:to-stone-900",
  },
  {
    eyebrow: "Body care",
    title: "Bath time, soap-free, for the whole family",
    text: "Our nalangu maavu Bath Powder is stone-ground from green gram, wild turmeric, vetiver and rose petals, with a fragrance-free version gentle enough for little ones.",
    image: imageFor("bath-powder-1"),
    imageAlt: "A jar of Bath Powder",
    tone: "from-amber-100 to-orange-50 dark:from-amber-950 dark:to-stone-900",
  },
  {
    eyebrow: "Milk range",
    title: "A glass of goodness from the Indian kitchen",
    text: "Badam Mix blends roasted almonds, pistachios, cardamom and saffron, sweetened with palm jaggery instead of refined sugar. Stir it into hot or cold milk.",
    image: imageFor("badam-mix-1"),
    imageAlt: "A pack of Badam Mix",
    tone: "from-yellow-100 to-stone-50 dark:from-yellow-950 dark:to-stone-900",
  },
  {
    eyebrow: "Combos & gifting",
    title: "Complete routines, gift-wrapped on request",
    text: "Four bundles that pair our favourites into a full routine, for skin, hair, nutrition and the family bath, each at a lower price than buying them apart.",
    image: imageFor("skincare-combo"),
    imageAlt: "The Glow Skincare Combo: Face Glow Oil, Face Wash Powder and Skin Brightening Pack",
    tone: "from-pink-100 to-violet-50 dark:from-pink-950 dark:to-stone-900",
  },
];
