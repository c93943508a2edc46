import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { Product } from "../../common/catalogue.ts";
import { formatRupees } from "../../common/money.ts";
import { ProductQuestions } from "../features/questions/product-questions.tsx";
import { ProductReviews } from "../features/reviews/product-reviews.tsx";
import { api, isApiError } from "../lib/api.ts";

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    return { product: await api<Product>(`/products/${encodeURIComponent(params.slug ?? "")}`) };
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return { product: null };
    throw error;
  }
}

export function Component() {
  const { product } = useLoaderData<typeof loader>();
  if (!product) {
    return (
      <section className="py-16 text-center">
        <h1 className="font-serif text-2xl font-semibold">We couldn't find that product</h1>
        <p className="mt-2">It may have been renamed or is no longer sold.</p>
        <Link to="/" className="mt-4 inline-block underline">
          Back to all products
        </Link>
      </section>
    );
  }
  return (
    <article className="grid gap-6 md:grid-cols-2">
      <img
        src={product.image.large}
        width={800}
        height={800}
        alt={product.name}
        className="w-full rounded-lg"
      />
      <div>
        <h1 className="font-serif text-3xl font-semibold">{product.name}</h1>
        <p className="mt-2 text-xl">{formatRupees(product.pricePaise)}</p>
        <p className="mt-4">{product.description}</p>
      </div>
      <div className="md:col-span-2">
        <ProductReviews slug={product.slug} />
        <ProductQuestions slug={product.slug} />
      </div>
    </article>
  );
}
