import { data, Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { Combo } from "../../common/catalogue.ts";
import { formatRupees } from "../../common/money.ts";
import { Breadcrumbs } from "../components/breadcrumbs.tsx";
import { Thumbnail } from "../components/card.tsx";
import { AddToCartButton } from "../features/cart/add-to-cart-button.tsx";
import { ComboNotFound } from "../features/catalogue/catalogue-not-found.tsx";
import { PriceTag } from "../features/catalogue/price-tag.tsx";
import { ProductBadge } from "../features/catalogue/product-badge.tsx";
import { BenefitList, StockStatus } from "../features/catalogue/product-facts.tsx";
import { PRODUCT_IMAGE_SIZES } from "../features/catalogue/product-gallery.tsx";
import { DeliveryCheck } from "../features/delivery/delivery-check.tsx";
import { api, isApiError } from "../lib/api.ts";
import { imageSrcSet, ogImagePath, pageTitle, type RouteHandle } from "../lib/document-head.ts";
import { useShopData } from "../lib/shop-data.ts";

/** The page's own data is its combo; the others, for the not-found page, are the root's (useShopData). */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const combo = await getComboOrNull(id);
  if (combo) return { id, combo };
  return data({ id, combo }, { status: 404 });
}

async function getComboOrNull(id: string): Promise<Combo | null> {
  try {
    return await api<Combo>(`/combos/${encodeURIComponent(id)}`);
  } catch (error) {
    // A malformed id (400) is as missing as an unknown one.
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data: { combo }, shop: { config } }) => {
    if (!combo) return { title: pageTitle("Combo not found", config.shopName), noindex: true };
    return {
      title: pageTitle(combo.title, config.shopName),
      description: combo.description,
      type: "product",
      image: { path: ogImagePath(combo.image), alt: combo.title },
      pricePaise: combo.salePricePaise,
      leadImage: { image: combo.image, sizes: PRODUCT_IMAGE_SIZES },
      structuredData: [
        { type: "combo", combo },
        {
          type: "breadcrumbs",
          steps: [
            { name: "Home", path: "/" },
            { name: "Combos & Gifting", path: "/#combos" },
            { name: combo.title },
          ],
        },
      ],
    };
  },
};

export function Component() {
  const data = useLoaderData<typeof loader>();
  const { products, combos } = useShopData();
  if (!data.combo) return <ComboNotFound id={data.id} combos={combos} products={products} />;
  return <ComboDetail key={data.combo.id} combo={data.combo} />;
}

function ComboDetail({ combo }: { combo: Combo }) {
  return (
    <>
      <Breadcrumbs
        items={[{ label: "Home", to: "/" }, { label: "Combos & Gifting" }, { label: combo.title }]}
      />
      <article className="grid gap-8 md:grid-cols-2 lg:gap-12">
        <img
          src={combo.image.large}
          srcSet={imageSrcSet(combo.image)}
          sizes={PRODUCT_IMAGE_SIZES}
          fetchPriority="high"
          width={combo.image.width}
          height={combo.image.height}
          alt={`${combo.title}: ${combo.products.map((product) => product.name).join(", ")}`}
          className="aspect-square h-auto w-full rounded-xl border border-stone-200 bg-white dark:border-stone-800"
        />
        <div className="flex flex-col gap-5">
          <div>
            <p className="mb-3">
              <ProductBadge badge={combo.badge} />
            </p>
            <h1 className="font-serif text-3xl font-semibold sm:text-4xl">{combo.title}</h1>
            <p className="mt-3 leading-relaxed text-stone-700 dark:text-stone-300">{combo.description}</p>
          </div>

          <div>
            <PriceTag
              pricePaise={combo.salePricePaise}
              originalPricePaise={combo.originalPricePaise}
              size="lg"
            />
            <p className="mt-1 font-medium text-red-700 dark:text-red-300">
              You save {formatRupees(combo.savingsPaise)}
            </p>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Inclusive of all taxes</p>
          </div>

          <BenefitList benefits={combo.benefits} />

          <StockStatus inStock={combo.inStock} />

          <AddToCartButton
            inStock={combo.inStock}
            item={{ kind: "combo", id: combo.id, name: combo.title }}
          />

          <DeliveryCheck item={{ combo: combo.id }} />

          <p className="rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900 dark:border-brand-900 dark:bg-brand-900/40 dark:text-brand-100">
            All our combos come in eco-friendly packaging, and free gift wrapping is available on request.
          </p>
        </div>
      </article>

      <section aria-labelledby="inside-heading" className="mt-14">
        <h2 id="inside-heading" className="mb-4 font-serif text-2xl font-semibold">
          What's inside
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {combo.products.map((product) => (
            <li
              key={product.slug}
              className="flex items-center gap-4 rounded-xl border border-stone-200 bg-white p-4 sm:flex-col sm:text-center dark:border-stone-800 dark:bg-stone-900"
            >
              <Thumbnail
                src={product.image.small}
                loading="lazy"
                className="size-24 shrink-0 rounded-full border border-stone-200 bg-white sm:size-36 dark:border-stone-700"
                size={400}
              />
              <div>
                <Link
                  to={`/product/${product.slug}`}
                  className="font-medium underline decoration-stone-400 underline-offset-2 hover:text-brand-700 dark:hover:text-brand-100"
                >
                  {product.name}
                </Link>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  <span className="sr-only">Price on its own: </span>
                  {formatRupees(product.pricePaise)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
