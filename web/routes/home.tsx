import { lazy } from "react";
import { useLocation } from "react-router";
import { LoadWhenNear } from "../components/load-when-near.tsx";
import { FeaturedGrid } from "../features/catalogue/featured-grid.tsx";
import { BestSellers } from "../features/home/best-sellers.tsx";
import { Hero } from "../features/home/hero.tsx";
import { HERO_IMAGE_SIZES } from "../features/home/hero-slides.ts";
import { SearchSection } from "../features/home/search-section.tsx";
import { DEFAULT_DESCRIPTION, type RouteHandle, shopImage } from "../lib/document-head.ts";
import { SECTION_IDS } from "../lib/go-to-section.ts";
import { useShopData } from "../lib/shop-data.ts";

// Combos, about and contact sit below the fold: they load as the visitor scrolls towards them, or at
// once when the address (About Us, Contact Us) points at one of them.
const BelowTheFold = lazy(() =>
  import("../features/home/below-the-fold.tsx").then((m) => ({ default: m.BelowTheFold })),
);

const LOWER_SECTIONS = new Set<string>([SECTION_IDS.combos, SECTION_IDS.about, SECTION_IDS.contact]);

/** The landing page lays its sections edge to edge; the root layout reads fullWidth. */
export const handle: RouteHandle = {
  fullWidth: true,
  // Any unknown path shows the home page too (the spec); it is filed under "/".
  meta: ({ shop: { config, combos } }) => ({
    title: `${config.shopName}: natural hair, skin, body care and nutrition`,
    description: DEFAULT_DESCRIPTION,
    canonicalPath: "/",
    leadImage: config.heroSlides[0] && { image: config.heroSlides[0].image, sizes: HERO_IMAGE_SIZES },
    image: shopImage(combos),
    structuredData: [{ type: "organization" }, { type: "website" }],
  }),
};

/** The landing page, in the spec's order (banner and header come from the root layout). */
export function Component() {
  const { products, combos, config } = useShopData();
  const { hash } = useLocation();
  return (
    <>
      <h1 className="sr-only">{config.shopName}: natural hair care, skin care, body care and nutrition</h1>
      <Hero shopName={config.shopName} slides={config.heroSlides} />
      <BestSellers products={products} />
      <SearchSection products={products} />
      <FeaturedGrid products={products} />
      <LoadWhenNear placeholderClassName="min-h-screen" now={LOWER_SECTIONS.has(hash.slice(1))}>
        <BelowTheFold combos={combos} config={config} />
      </LoadWhenNear>
    </>
  );
}
