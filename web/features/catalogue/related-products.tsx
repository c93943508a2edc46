import { Link } from "react-router";
import type { Product } from "../../../common/catalogue.ts";
import { Thumbnail } from "../../components/card.tsx";
import { PriceTag } from "./price-tag.tsx";
import { isOnSale, ProductBadge, SaleTag } from "./product-badge.tsx";
import { StarRating } from "./star-rating.tsx";

type CardProduct = Pick<
  Product,
  | "slug"
  | "name"
  | "image"
  | "badge"
  | "pricePaise"
  | "originalPricePaise"
  | "rating"
  | "reviewCount"
  | "benefits"
>;

/** A product as the spec's cards show it: badge, image, name, rating, price and first benefit. */
export function RelatedProductCard({ product }: { product: CardProduct }) {
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md dark:border-stone-800 dark:bg-stone-900">
      <div className="relative">
        <Thumbnail
          src={product.image.small}
          loading="lazy"
          className="aspect-square h-auto w-full bg-white"
          size={400}
        />
        <div className="absolute top-2 left-2 flex flex-wrap gap-1">
          <ProductBadge badge={product.badge} />
          {isOnSale(product.pricePaise, product.originalPricePaise) && <SaleTag />}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="font-medium">
          {/* The link covers the whole card; the heading keeps a short accessible name. */}
          <Link
            to={`/product/${product.slug}`}
            className="rounded after:absolute after:inset-0 after:content-['']"
          >
            {product.name}
          </Link>
        </h3>
        <StarRating rating={product.rating} reviews={product.reviewCount} compact />
        <PriceTag pricePaise={product.pricePaise} originalPricePaise={product.originalPricePaise} />
        {product.benefits[0] && (
          <p className="mt-auto text-sm text-stone-600 dark:text-stone-400">{product.benefits[0]}</p>
        )}
      </div>
    </article>
  );
}

export function RelatedProducts({ products }: { products: CardProduct[] }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-14">
      <h2 id="related-heading" className="mb-4 font-serif text-2xl font-semibold">
        You may also like
      </h2>
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {products.map((product) => (
          <li key={product.slug}>
            <RelatedProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}
