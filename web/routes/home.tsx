import { lazy, Suspense } from "react";
import { FeaturedGrid } from "../features/catalogue/featured-grid.tsx";
import { BestSellers } from "../features/home/best-sellers.tsx";
import { Hero } from "../features/home/hero.tsx";
import { SearchSection } from "../features/home/search-section.tsx";
import { useShopData } from "../lib/shop-data.ts";

// Combos, about and contact sit below the fold: they load while the visitor looks at the first screen.
const BelowTheFold = lazy(() =>
  import("../features/home/below-the-fold.tsx").then((m) => ({ default: m.BelowTheFold })),
);

/** The landing page lays its sections edge to edge; the root layout reads this. */
export const handle = { fullWidth: true };

/** The landing page, in the spec's order (banner and header come from the root layout). */
export function Component() {
  const { products, combos, config } = useShopData();
  return (
    <>
      <h1 className="sr-only">{config.shopName}: natural hair care, skin care, body care and nutrition</h1>
      <Hero shopName={config.shopName} />
      <BestSellers products={products} />
      <SearchSection products={products} />
      <FeaturedGrid products={products} />
      <Suspense fallback={<div className="min-h-screen" />}>
        <BelowTheFold combos={combos} config={config} />
      </Suspense>
    </>
  );
}
