import type { Product } from "../../../common/catalogue.ts";
import { SearchBox } from "../search/search-box.tsx";

/** The inline search bar: medium screens and up (phones use the header's search button). */
export function SearchSection({ products }: { products: Product[] }) {
  return (
    <section aria-labelledby="search-heading" className="hidden bg-brand-50 md:block dark:bg-stone-900">
      <div className="mx-auto max-w-3xl px-4 py-10">
        <h2 id="search-heading" className="mb-4 text-center font-serif text-2xl font-semibold">
          Looking for something?
        </h2>
        <SearchBox products={products} />
      </div>
    </section>
  );
}
