import { useMemo } from "react";
import type { Product } from "../../../common/catalogue.ts";
import { pickBestSellers } from "../../../common/catalogue-rules.ts";
import { SectionHeading } from "../../components/section-heading.tsx";
import { SECTION_IDS, useGoToSection } from "../../lib/go-to-section.ts";
import { ProductCard } from "../catalogue/product-card.tsx";

/** The spec's rule (pickBestSellers): badge Best Seller or rated 4.6 and up, most reviewed first, four. */
export function BestSellers({ products }: { products: Product[] }) {
  const bestSellers = useMemo(() => pickBestSellers(products), [products]);
  const goToSection = useGoToSection();
  return (
    <section
      id={SECTION_IDS.bestSellers}
      tabIndex={-1}
      aria-labelledby="best-sellers-heading"
      className="mx-auto max-w-7xl px-4 py-12 focus:outline-none sm:py-16"
    >
      <SectionHeading id="best-sellers-heading" eyebrow="Loved by thousands" title="Best sellers">
        The products our customers come back for, again and again.
      </SectionHeading>
      <ul className="grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-4">
        {bestSellers.map((product, index) => (
          <li key={product.slug}>
            <ProductCard product={product} showBenefit eager={index < 2} />
          </li>
        ))}
      </ul>
      <div className="mt-8 text-center">
        <button
          type="button"
          onClick={() => goToSection(SECTION_IDS.featured)}
          className="rounded-full border-2 border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50 dark:border-brand-100 dark:text-brand-100 dark:hover:bg-stone-800"
        >
          View All Products
        </button>
      </div>
    </section>
  );
}
