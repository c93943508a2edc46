import { type KeyboardEvent, useRef, useState } from "react";
import type { ProductImage } from "../../../common/catalogue.ts";
import { Thumbnail } from "../../components/card.tsx";
import { imageSrcSet } from "../../lib/document-head.ts";

/** The main image's sizes; also the server's preload of it (web/routes/product.tsx, combo.tsx). */
export const PRODUCT_IMAGE_SIZES = "(min-width: 1152px) 544px, (min-width: 768px) 50vw, 100vw";

const NEXT_KEYS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The main image and, with more than one, a thumbnail button per image. Thumbnails are in the
 * tab order; arrow keys, Home and End also move between them and switch the main image.
 */
export function ProductGallery({ name, images }: { name: string; images: ProductImage[] }) {
  const [current, setCurrent] = useState(0);
  const thumbnails = useRef<(HTMLButtonElement | null)[]>([]);
  const image = images[current] ?? images[0];
  if (!image) return null;
  const count = images.length;

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const next = NEXT_KEYS[event.key]?.(index, count);
    if (next === undefined) return;
    event.preventDefault();
    setCurrent(next);
    thumbnails.current[next]?.focus();
  };

  return (
    <div>
      <img
        src={image.large}
        srcSet={imageSrcSet(image)}
        sizes={PRODUCT_IMAGE_SIZES}
        fetchPriority="high"
        width={image.width}
        height={image.height}
        alt={image.alt || (count > 1 ? `${name}, image ${current + 1} of ${count}` : name)}
        className="aspect-square h-auto w-full rounded-xl border border-stone-200 bg-white dark:border-stone-800"
      />
      {count > 1 && (
        <fieldset className="mt-3 flex gap-3">
          <legend className="sr-only">{`${name}: choose an image`}</legend>
          {images.map((thumbnail, index) => (
            <button
              key={thumbnail.small}
              ref={(element) => {
                thumbnails.current[index] = element;
              }}
              type="button"
              aria-label={`Show image ${index + 1} of ${count}`}
              aria-pressed={index === current}
              onClick={() => setCurrent(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`overflow-hidden rounded-lg border-2 ${
                index === current
                  ? "border-brand-700 dark:border-brand-100"
                  : "border-transparent opacity-80 hover:opacity-100"
              }`}
            >
              {/* Low priority: the server HTML would otherwise preload every thumbnail beside the main image. */}
              <Thumbnail
                src={thumbnail.small}
                fetchPriority="low"
                className="block size-16 bg-white sm:size-20"
                size={400}
              />
            </button>
          ))}
        </fieldset>
      )}
    </div>
  );
}
