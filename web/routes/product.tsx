import { useState } from "react";
import { data, type LoaderFunctionArgs, redirect, useLoaderData } from "react-router";
import { CATEGORY_FILTERS, type Product } from "../../common/catalogue.ts";
import { formatRupees } from "../../common/money.ts";
import { pickRelatedProducts, suggestProducts } from "../../common/product-suggestions.ts";
import { Breadcrumbs } from "../components/breadcrumbs.tsx";
import { QuantityInput } from "../components/quantity-input.tsx";
import { AddToCartButton } from "../features/cart/add-to-cart-button.tsx";
import { ProductNotFound } from "../features/catalogue/catalogue-not-found.tsx";
import { PriceTag } from "../features/catalogue/price-tag.tsx";
import { isOnSale, ProductBadge, SaleTag } from "../features/catalogue/product-badge.tsx";
import { BenefitList, StockStatus } from "../features/catalogue/product-facts.tsx";
import { PRODUCT_IMAGE_SIZES, ProductGallery } from "../features/catalogue/product-gallery.tsx";
import { RelatedProducts } from "../features/catalogue/related-products.tsx";
import { StarRating } from "../features/catalogue/star-rating.tsx";
import { DeliveryCheck } from "../features/delivery/delivery-check.tsx";
import { ProductQuestions } from "../features/questions/product-questions.tsx";
import { ProductReviews } from "../features/reviews/product-reviews.tsx";
import { api, isApiError } from "../lib/api.ts";
import { ogImagePath, pageTitle, type RouteHandle } from "../lib/document-head.ts";
import { useShopData } from "../lib/shop-data.ts";

const MAX_QUANTITY = 99;

async function getProductOrNull(slug: string): Promise<Product | null> {
  try {
    return await api<Product>(`/products/${encodeURIComponent(slug)}`);
  } catch (error) {
    // A malformed slug (400) is as missing as an unknown one.
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
    // A product that moved, read without following the redirect (the server's in-process API).
    const moved = isApiError(error) && error.status === 308 && (error.body as { slug?: unknown })?.slug;
    if (typeof moved === "string") throw redirect(`/product/${moved}`, 301);
    throw error;
  }
}

/** The page's own data is its product; the catalogue for related products is the root's (useShopData). */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const product = await getProductOrNull(slug);
  // An earlier address of a renamed product: the API's redirect was followed, the page moves too.
  if (product && product.slug !== slug) {
    const { search } = new URL(request.url);
    throw redirect(`/product/${product.slug}${search}`, 301);
  }
  // The not-found page with suggestions, answered as a 404 so search engines drop the address.
  if (!product) return data({ slug, product }, { status: 404 });
  return { slug, product };
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data: { product }, shop: { config } }) => {
    if (!product) return { title: pageTitle("Product not found", config.shopName), noindex: true };
    const category = CATEGORY_FILTERS[product.category].label;
    return {
      title: pageTitle(product.name, config.shopName),
      description: product.description,
      type: "product",
      image: { path: ogImagePath(product.image), alt: product.name },
      pricePaise: product.pricePaise,
      leadImage: { image: product.image, sizes: PRODUCT_IMAGE_SIZES },
      structuredData: [
        { type: "product", product },
        {
          type: "breadcrumbs",
          steps: [
            { name: "Home", path: "/" },
            { name: category, path: `/?category=${product.category}` },
            { name: product.name },
          ],
        },
      ],
    };
  },
};

export function Component() {
  const data = useLoaderData<typeof loader>();
  const { products } = useShopData();
  if (!data.product) {
    return (
      <ProductNotFound
        slug={data.slug}
        suggestions={suggestProducts(products, data.slug)}
        products={products}
      />
    );
  }
  // A new product (a related card was followed) starts again at its first image and quantity 1.
  return (
    <ProductDetail
      key={data.product.slug}
      product={data.product}
      related={pickRelatedProducts(products, data.product)}
    />
  );
}

function ProductDetail({ product, related }: { product: Product; related: Product[] }) {
  const [quantity, setQuantity] = useState(1);
  const category = CATEGORY_FILTERS[product.category].label;
  const original = product.originalPricePaise;
  const saving = isOnSale(product.pricePaise, original)
    ? { paise: original - product.pricePaise, percent: Math.round((1 - product.pricePaise / original) * 100) }
    : null;
  const onSale = saving !== null;

  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Home", to: "/" },
          { label: category },
          { label: product.subcategory },
          { label: product.name },
        ]}
      />
      <article className="grid gap-8 md:grid-cols-2 lg:gap-12">
        <ProductGallery name={product.name} images={product.images} />
        <div className="flex flex-col gap-5">
          <div>
            {(product.badge || onSale) && (
              <p className="mb-3 flex flex-wrap gap-2">
                <ProductBadge badge={product.badge} />
                {onSale && <SaleTag />}
              </p>
            )}
            <h1 className="font-serif text-3xl font-semibold sm:text-4xl">{product.name}</h1>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              {category} · {product.subcategory}
            </p>
            <div className="mt-3">
              <StarRating rating={product.rating} reviews={product.reviewCount} sourced />
            </div>
          </div>

          <div>
            <PriceTag
              pricePaise={product.pricePaise}
              originalPricePaise={product.originalPricePaise}
              size="lg"
            />
            {saving && (
              <p className="mt-1 font-medium text-red-700 dark:text-red-300">
                You save {formatRupees(saving.paise)} ({saving.percent}% off)
              </p>
            )}
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Inclusive of all taxes</p>
          </div>

          <BenefitList benefits={product.benefits} />

          <StockStatus inStock={product.inStock} />

          <AddToCartButton
            inStock={product.inStock}
            item={{ kind: "product", id: product.slug, name: product.name, quantity }}
          >
            <QuantityInput value={quantity} onChange={setQuantity} min={1} max={MAX_QUANTITY} />
          </AddToCartButton>

          <DeliveryCheck item={{ product: product.slug }} />

          <section
            aria-labelledby="description-heading"
            className="border-t border-stone-200 pt-5 dark:border-stone-800"
          >
            <h2 id="description-heading" className="font-serif text-xl font-semibold">
              About this product
            </h2>
            <p className="mt-2 leading-relaxed text-stone-700 dark:text-stone-300">{product.description}</p>
          </section>
        </div>
      </article>
      <div className="mt-12 space-y-12">
        <ProductReviews slug={product.slug} />
        <ProductQuestions slug={product.slug} />
      </div>
      <RelatedProducts products={related} />
    </>
  );
}
