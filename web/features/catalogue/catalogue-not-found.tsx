import type { ReactNode } from "react";
import { Link } from "react-router";
import { CATEGORIES, CATEGORY_FILTERS, type Combo, type Product } from "../../../common/catalogue.ts";
import { formatRupees } from "../../../common/money.ts";
import { buttonClass } from "../../components/button.tsx";

const linkClass =
  "rounded underline decoration-stone-400 underline-offset-2 hover:text-brand-700 dark:hover:text-brand-100";

function NotFoundLayout({
  heading,
  message,
  children,
}: {
  heading: string;
  message: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="not-found-heading" className="mx-auto max-w-3xl py-10">
      <h1 id="not-found-heading" className="font-serif text-3xl font-semibold">
        {heading}
      </h1>
      <p className="mt-3 text-stone-700 dark:text-stone-300">{message}</p>
      {children}
      <p className="mt-10">
        <Link to="/" className={buttonClass({ size: "lg" })}>
          Back to the shop
        </Link>
      </p>
    </section>
  );
}

function ProductLinks({ products }: { products: Pick<Product, "slug" | "name" | "pricePaise">[] }) {
  return (
    <ul className="mt-2 space-y-1">
      {products.map((product) => (
        <li key={product.slug}>
          <Link to={`/product/${product.slug}`} className={linkClass}>
            {product.name}
          </Link>{" "}
          <span className="text-sm text-stone-600 dark:text-stone-400">
            {formatRupees(product.pricePaise)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Every product, under its category, so a shopper with a broken link still finds it. */
function BrowseByCategory({ products }: { products: Product[] }) {
  return (
    <section aria-labelledby="browse-heading" className="mt-8">
      <h2 id="browse-heading" className="font-serif text-xl font-semibold">
        Browse by category
      </h2>
      <div className="mt-3 grid gap-6 sm:grid-cols-2">
        {CATEGORIES.map((category) => {
          const inCategory = products.filter((product) => product.category === category);
          if (inCategory.length === 0) return null;
          return (
            <section key={category} aria-labelledby={`category-${category}`}>
              <h3 id={`category-${category}`} className="font-semibold">
                {CATEGORY_FILTERS[category].label}
              </h3>
              <ProductLinks products={inCategory} />
            </section>
          );
        })}
      </div>
    </section>
  );
}

export function ProductNotFound({
  slug,
  suggestions,
  products,
}: {
  slug: string;
  suggestions: Product[];
  products: Product[];
}) {
  return (
    <NotFoundLayout
      heading="We couldn't find that product"
      message={
        <>
          There is no product at <code className="break-all">/product/{slug}</code>. It may have been renamed
          or is no longer sold. Try the search at the top of the page, or pick from the list below.
        </>
      }
    >
      {suggestions.length > 0 && (
        <section aria-labelledby="suggestions-heading" className="mt-8">
          <h2 id="suggestions-heading" className="font-serif text-xl font-semibold">
            Were you looking for one of these?
          </h2>
          <ProductLinks products={suggestions} />
        </section>
      )}
      <BrowseByCategory products={products} />
    </NotFoundLayout>
  );
}

export function ComboNotFound({
  id,
  combos,
  products,
}: {
  id: string;
  combos: Combo[];
  products: Product[];
}) {
  return (
    <NotFoundLayout
      heading="We couldn't find that combo"
      message={
        <>
          There is no combo at <code className="break-all">/combo/{id}</code>. These are the combos on offer
          now:
        </>
      }
    >
      <ul className="mt-4 space-y-2">
        {combos.map((combo) => (
          <li key={combo.id}>
            <Link to={`/combo/${combo.id}`} className={`${linkClass} font-medium`}>
              {combo.title}
            </Link>{" "}
            <span className="text-sm text-stone-600 dark:text-stone-400">
              {formatRupees(combo.salePricePaise)}, save {formatRupees(combo.savingsPaise)}
            </span>
          </li>
        ))}
      </ul>
      <BrowseByCategory products={products} />
    </NotFoundLayout>
  );
}
