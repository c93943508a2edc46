import { Link } from "react-router";
import type { Product } from "../../../common/catalogue.ts";
import { formatRupees } from "../../../common/money.ts";
import { Stars } from "../../components/icons.tsx";
import { Badge } from "./badge.tsx";

export const productCardId = (slug: string) => `product-${slug}`;

const reviews = new Intl.NumberFormat("en-IN");

type ProductCardProps = {
  product: Product;
  /** Best-seller cards show the first benefit. */
  showBenefit?: boolean;
  highlighted?: boolean;
  /** The first cards on screen load eagerly; the rest wait until they are near. */
  eager?: boolean;
};

/** One product: the name is the link, stretched over the whole card so any click opens the product. */
export function ProductCard({
  product,
  showBenefit = false,
  highlighted = false,
  eager = false,
}: ProductCardProps) {
  const onSale = product.originalPricePaise !== null && product.originalPricePaise > product.pricePaise;
  return (
    <article
      id={productCardId(product.slug)}
      data-highlighted={highlighted || undefined}
      className={`group relative flex h-full flex-col overflow-hidden rounded-2xl border bg-white shadow-sm transition-shadow hover:shadow-lg has-focus-visible:ring-4 has-focus-visible:ring-amber-500 dark:bg-stone-900 ${
        highlighted
          ? "border-amber-500 ring-4 ring-amber-400 dark:ring-amber-500"
          : "border-stone-200 dark:border-stone-800"
      }`}
    >
      <div className="relative aspect-square bg-stone-100 dark:bg-stone-800">
        <img
          src={product.image.small}
          srcSet={`${product.image.small} 400w, ${product.image.large} 800w`}
          sizes="(min-width: 1024px) 280px, (min-width: 768px) 33vw, 50vw"
          width={400}
          height={400}
          alt=""
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
        <div className="absolute inset-x-2 top-2 flex flex-wrap items-start gap-1">
          {product.badge && <Badge label={product.badge} />}
          {onSale && (
            <span className="ml-auto rounded-md bg-red-700 px-2 py-1 text-xs font-bold tracking-wider text-white">
              SALE
            </span>
          )}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
        <h3 className="font-serif text-base leading-snug font-semibold sm:text-lg">
          <Link
            to={`/product/${product.slug}`}
            className="after:absolute after:inset-0 focus-visible:outline-none"
          >
            {product.name}
          </Link>
        </h3>
        <p className="flex flex-wrap items-center gap-x-1.5 text-sm text-stone-600 dark:text-stone-400">
          <Stars rating={product.rating} />
          <span className="sr-only">Rated</span>
          <span className="font-medium text-stone-800 dark:text-stone-200">{product.rating.toFixed(1)}</span>
          <span>({reviews.format(product.reviewCount)} reviews)</span>
        </p>
        {showBenefit && product.benefits[0] && (
          <p className="text-sm text-brand-700 dark:text-brand-100">✓ {product.benefits[0]}</p>
        )}
        <p className="mt-auto flex items-baseline gap-2 pt-1">
          <span className="text-lg font-bold">{formatRupees(product.pricePaise)}</span>
          {onSale && product.originalPricePaise !== null && (
            <s className="text-sm text-stone-500 dark:text-stone-400">
              <span className="sr-only">was </span>
              {formatRupees(product.originalPricePaise)}
            </s>
          )}
        </p>
      </div>
    </article>
  );
}
