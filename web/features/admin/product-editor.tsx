import type { FormEvent } from "react";
import { Link } from "react-router";
import type { AdminProduct } from "../../../common/schemas/admin-products.ts";
import { Button, buttonClass } from "../../components/button.tsx";
import { ProductDetails } from "./product-details.tsx";
import { ProductImages } from "./product-images.tsx";
import { type ProductEditorState, useProductEditor } from "./use-product-editor.ts";

/**
 * The owner's form for one product (or a new one). Everything typed stays in the form until a save succeeds:
 * a refused save (bad input, or someone else's change in between) shows why beside the form and loses nothing.
 */
export function ProductEditor({ product }: { product: AdminProduct | null }) {
  const editor = useProductEditor(product);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void editor.save();
  }
  return (
    <form onSubmit={submit} noValidate aria-label={product ? `Edit ${product.name}` : "New product"}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/admin/products" className="underline">
              ← Products
            </Link>
          </p>
          <h1 className="mt-1 font-serif text-3xl font-semibold">{product ? product.name : "New product"}</h1>
        </div>
        {product?.active && (
          <Link to={`/product/${product.slug}`} className="text-sm underline">
            See it in the shop
          </Link>
        )}
      </div>
      <SaveOutcome product={product} editor={editor} />
      {product?.ordered && (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          This product has been ordered: it can be hidden, never deleted.
        </p>
      )}
      <ProductDetails product={product} editor={editor} />
      <ProductImages editor={editor} />
      <div className="mt-4 flex flex-wrap gap-3">
        <Button type="submit" className="min-h-11" disabled={editor.saving || editor.uploading}>
          {editor.saving ? "Saving…" : product ? "Save changes" : "Create product"}
        </Button>
        <Link to="/admin/products" className={`${buttonClass({ variant: "secondary" })} min-h-11`}>
          Back to products
        </Link>
      </div>
    </form>
  );
}

/** What the last save came to: saved, refused with the reason, or overtaken by someone else's change. */
function SaveOutcome({ product, editor }: { product: AdminProduct | null; editor: ProductEditorState }) {
  const { conflict, message, saved, saving } = editor;
  return (
    <>
      <div ref={editor.notice} tabIndex={-1} className="focus:outline-none">
        {conflict && (
          <div
            role="alert"
            className="mt-4 rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <p className="font-medium">{message}</p>
            <p className="mt-1 text-sm">What you typed is still in the form below.</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <Button type="button" disabled={saving} onClick={() => void editor.saveOverTheirs()}>
                Save mine over theirs
              </Button>
              {product && (
                <a
                  href={`/admin/products/${product.slug}`}
                  target="_blank"
                  rel="noreferrer"
                  className={buttonClass({ variant: "secondary" })}
                >
                  See their version (new tab)
                </a>
              )}
            </div>
          </div>
        )}
        {!conflict && message && (
          <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
            {message}
          </p>
        )}
      </div>
      {saved && (
        <p role="status" className="mt-4 text-sm font-medium text-emerald-800 dark:text-emerald-300">
          {saved}
        </p>
      )}
    </>
  );
}
