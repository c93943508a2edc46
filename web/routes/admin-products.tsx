import { Form, Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { formatRupees } from "../../common/money.ts";
import type { AdminProductList } from "../../common/schemas/admin-products.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass, Thumbnail } from "../components/card.tsx";
import { Field, Input } from "../components/field.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  return { q, list: await api<AdminProductList>(`/admin/products${toQuery({ q })}`) };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: products") };

const shownTone = "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100";
const hiddenTone = "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100";

/** Every product, shown or hidden, searchable by name: a card each on a phone, a row each on a desk. */
export function Component() {
  const { q, list } = useLoaderData<typeof loader>();
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-serif text-3xl font-semibold">Products</h1>
        <Link to="/admin/products/new" className={buttonClass()}>
          New product
        </Link>
      </div>
      <Form method="get" role="search" className="mt-4 flex max-w-xl items-end gap-2">
        <Field id="product-search" label="Search by name" className="min-w-0 flex-1">
          <Input name="q" type="search" defaultValue={q} className="min-h-11" maxLength={100} />
        </Field>
        <Button type="submit" variant="secondary" className="min-h-11">
          Search
        </Button>
      </Form>
      <p className="mt-3 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {q
          ? `${list.items.length} product${list.items.length === 1 ? "" : "s"} named like “${q}”.`
          : `${list.items.length} products.`}{" "}
        {q && (
          <Link to="/admin/products" className="underline">
            Show all
          </Link>
        )}
      </p>
      <div
        aria-hidden="true"
        className="mt-3 hidden gap-3 border-b border-stone-300 px-4 pb-2 text-xs font-medium tracking-wide text-stone-600 uppercase lg:flex dark:border-stone-600 dark:text-stone-400"
      >
        <span className="w-16 shrink-0" />
        <span className="grid flex-1 grid-cols-[1fr_6rem_7rem_5rem_auto] gap-x-4">
          <span>Name</span>
          <span>Status</span>
          <span>Price</span>
          <span>Stock</span>
          <span className="w-16" />
        </span>
      </div>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:mt-0 lg:grid-cols-1 lg:gap-0" aria-label="Products">
        {list.items.map((product) => (
          <li
            key={product.slug}
            className={`${cardClass} flex items-center gap-3 lg:rounded-none lg:border-x-0 lg:border-t-0 lg:py-2`}
          >
            <Thumbnail
              src={product.image.small}
              loading="lazy"
              className="size-16 shrink-0 rounded-md border border-stone-200 bg-white dark:border-stone-700"
              size={400}
            />
            <div className="grid min-w-0 flex-1 gap-x-4 gap-y-1 lg:grid-cols-[1fr_6rem_7rem_5rem_auto] lg:items-center">
              <p className="truncate font-medium" title={product.name}>
                {product.name}
              </p>
              <p>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-medium ${product.active ? shownTone : hiddenTone}`}
                >
                  {product.active ? "Shown" : "Hidden"}
                </span>
              </p>
              <p className="text-sm tabular-nums">
                {formatRupees(product.pricePaise)}
                {product.originalPricePaise !== null && product.originalPricePaise > product.pricePaise && (
                  <s className="ml-1 text-stone-500 dark:text-stone-400">
                    {formatRupees(product.originalPricePaise)}
                  </s>
                )}
              </p>
              <p className="text-sm tabular-nums">
                <span className="lg:sr-only">Stock: </span>
                {product.stock}
              </p>
              <Link
                to={`/admin/products/${product.slug}`}
                className={`${buttonClass({ variant: "secondary" })} min-h-11 justify-self-start lg:justify-self-end`}
              >
                Edit<span className="sr-only"> {product.name}</span>
              </Link>
            </div>
          </li>
        ))}
      </ul>
      {list.items.length === 0 && (
        <p className="mt-4 text-stone-600 dark:text-stone-400">
          {q ? `No products found for “${q}”.` : "No products yet."}
        </p>
      )}
    </div>
  );
}
