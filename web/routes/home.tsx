import { Link, useLoaderData } from "react-router";
import type { ProductPage } from "../../common/catalogue.ts";
import { formatRupees } from "../../common/money.ts";
import { api } from "../lib/api.ts";

export async function loader() {
  return api<ProductPage>("/products?pageSize=100");
}

export function Component() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="catalogue-heading">
      <h1 id="catalogue-heading" className="mb-4 font-serif text-2xl font-semibold">
        Our products
      </h1>
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {items.map((product) => (
          <li key={product.slug}>
            <Link
              to={`/product/${product.slug}`}
              className="block rounded-lg border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900"
            >
              <img
                src={product.image.small}
                width={400}
                height={400}
                alt=""
                loading="lazy"
                className="aspect-square w-full rounded"
              />
              <span className="mt-2 block font-medium">{product.name}</span>
              <span className="block text-sm">{formatRupees(product.pricePaise)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
