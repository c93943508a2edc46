import type { AdminProductImage } from "../../../common/schemas/admin-products.ts";
import { MAX_PRODUCT_IMAGES } from "../../../common/schemas/admin-products.ts";
import { buttonClass } from "../../components/button.tsx";
import { cardClass, Thumbnail } from "../../components/card.tsx";
import { controlClass } from "../../components/field.tsx";
import type { ProductEditorState } from "./use-product-editor.ts";

const smallButton = `${buttonClass({ variant: "secondary" })} min-h-11 px-3`;

/** The product's photos in order, each with its alt text, and the button that adds one. */
export function ProductImages({ editor }: { editor: ProductEditorState }) {
  const { draft, set, uploading, errors } = editor;
  const imageErrors = Object.entries(errors)
    .filter(([key, text]) => key.startsWith("images") && text)
    .map(([, text]) => text);
  const moveImage = (index: number, by: -1 | 1) => {
    const images = [...draft.images];
    const [moved] = images.splice(index, 1);
    if (!moved) return;
    images.splice(index + by, 0, moved);
    set("images", images);
  };
  return (
    <fieldset className={`${cardClass} mt-4`} aria-describedby="product-images-hint">
      <legend className="float-left w-full font-serif text-xl font-semibold">Images</legend>
      <p id="product-images-hint" className="clear-both pt-1 text-sm text-stone-600 dark:text-stone-400">
        1 to {MAX_PRODUCT_IMAGES} photos: JPEG, PNG or WebP, up to 10 MB and 50 megapixels each, cropped
        square. The first is the one on cards and in carts.
      </p>
      <ol className="mt-3 grid gap-3 sm:grid-cols-3" aria-label="Images in order">
        {draft.images.map((image, index) => (
          <ImageItem
            key={image.key}
            image={image}
            index={index}
            count={draft.images.length}
            altPlaceholder={draft.name || "Product name"}
            onAlt={(alt) =>
              set(
                "images",
                draft.images.map((each, at) => (at === index ? { ...each, alt } : each)),
              )
            }
            onMove={(by) => moveImage(index, by)}
            onRemove={() =>
              set(
                "images",
                draft.images.filter((_, at) => at !== index),
              )
            }
          />
        ))}
      </ol>
      {draft.images.length < MAX_PRODUCT_IMAGES && (
        <div className="mt-3">
          <label
            htmlFor="product-image-file"
            className={`${buttonClass({ variant: "secondary" })} min-h-11 cursor-pointer`}
          >
            {uploading ? "Uploading…" : "Add a photo"}
          </label>
          <input
            id="product-image-file"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            disabled={uploading}
            onChange={(event) => void editor.addImage(event)}
          />
        </div>
      )}
      {imageErrors.map((text) => (
        <p key={text} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {text}
        </p>
      ))}
    </fieldset>
  );
}

function ImageItem({
  image,
  index,
  count,
  altPlaceholder,
  onAlt,
  onMove,
  onRemove,
}: {
  image: AdminProductImage;
  index: number;
  count: number;
  altPlaceholder: string;
  onAlt: (alt: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <li className="flex gap-3 rounded-lg border border-stone-200 p-2 sm:block dark:border-stone-700">
      <Thumbnail
        src={image.small}
        className="aspect-square size-24 shrink-0 rounded-md bg-white sm:size-auto sm:w-full"
        size={400}
      />
      <div className="min-w-0 flex-1">
        <label htmlFor={`product-image-alt-${index}`} className="mt-2 block text-sm font-medium">
          Image {index + 1}: what it shows (alt text)
        </label>
        <input
          id={`product-image-alt-${index}`}
          value={image.alt}
          maxLength={200}
          placeholder={altPlaceholder}
          onChange={(event) => onAlt(event.currentTarget.value)}
          className={controlClass}
        />
        <div className="mt-2 flex flex-wrap gap-2">
          <button
            type="button"
            className={smallButton}
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={`Move image ${index + 1} earlier`}
          >
            ↑
          </button>
          <button
            type="button"
            className={smallButton}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={`Move image ${index + 1} later`}
          >
            ↓
          </button>
          <button type="button" className={smallButton} onClick={onRemove}>
            Remove<span className="sr-only"> image {index + 1}</span>
          </button>
        </div>
      </div>
    </li>
  );
}
