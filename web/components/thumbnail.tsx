import type { ImgHTMLAttributes } from "react";

export type ThumbnailProps = Omit<ImgHTMLAttributes<HTMLImageElement>, "width" | "height"> & {
  src: string;
  /** Width and height in CSS pixels, given so the row keeps its place while the picture loads. */
  size: number;
};

/**
 * A square picture shown small beside what it pictures (a product in a list, a line of an order). It is
 * decorative unless given an alt: the name it stands beside already says what it is.
 */
export function Thumbnail({ src, size, alt = "", ...img }: ThumbnailProps) {
  return <img src={src} width={size} height={size} alt={alt} {...img} />;
}
