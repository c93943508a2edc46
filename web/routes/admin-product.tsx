import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { AdminProduct } from "../../common/schemas/admin-products.ts";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { ProductEditor } from "../features/admin/product-editor.tsx";
import { type ParcelSize, ParcelSizeForm } from "../features/shipping/parcel-size-form.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

/** /admin/products/new, or /admin/products/<slug> to edit one. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const slug = params.slug ?? "new";
  if (slug === "new") return { product: null, size: null };
  const [product, parcel] = await Promise.all([
    api<AdminProduct>(`/admin/products/${encodeURIComponent(slug)}`),
    api<{ size: ParcelSize }>(`/admin/shipping/parcel-sizes/product/${encodeURIComponent(slug)}`),
  ]);
  return { product, size: parcel.size };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: edit product") };

export function Component() {
  const { product, size } = useLoaderData<typeof loader>();
  // A fresh editor per product, never one product's typing in another's form. Not per version: the editor
  // keeps the version it saved, and a new editor after each save would drop its "Saved" before anyone read it.
  return (
    <>
      <ProductEditor key={product ? product.slug : "new"} product={product} />
      {product && size && (
        <ParcelSizeForm key={`parcel-${product.slug}`} kind="product" id={product.slug} size={size} />
      )}
    </>
  );
}
