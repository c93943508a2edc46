import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { Combo } from "../../common/catalogue.ts";
import { formatRupees } from "../../common/money.ts";
import { AddToCartButton } from "../features/cart/add-to-cart-button.tsx";
import { api, isApiError } from "../lib/api.ts";

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    return { combo: await api<Combo>(`/combos/${encodeURIComponent(params.id ?? "")}`) };
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return { combo: null };
    throw error;
  }
}

export function Component() {
  const { combo } = useLoaderData<typeof loader>();
  if (!combo) {
    return (
      <section className="py-16 text-center">
        <h1 className="font-serif text-2xl font-semibold">We couldn't find that combo</h1>
        <Link to="/" className="mt-4 inline-block underline">
          Back to the shop
        </Link>
      </section>
    );
  }
  return (
    <article>
      <h1 className="font-serif text-3xl font-semibold">{combo.title}</h1>
      <p className="mt-2 text-xl">{formatRupees(combo.salePricePaise)}</p>
      <ul className="mt-4 list-disc pl-6">
        {combo.products.map((product) => (
          <li key={product.slug}>{product.name}</li>
        ))}
      </ul>
      <AddToCartButton item={{ id: combo.id, kind: "combo", name: combo.title }} inStock={combo.inStock} />
    </article>
  );
}
