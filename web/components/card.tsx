/**
 * The shop's one card, a bordered panel that groups one thing on a page, and the thumbnail that cards and
 * list rows show beside a name. They share a module because every shared module of its own becomes a chunk
 * whose name the entry script carries, inside decision 025's budget for a first visit.
 */
import type { HTMLAttributes, ImgHTMLAttributes, ReactNode } from "react";

export const cardClass =
  "rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-700 dark:bg-stone-900";

type CardProps = HTMLAttributes<HTMLElement> & { as?: "div" | "section" | "article" | "li" };

export function Card({ as: Element = "div", className, ...props }: CardProps) {
  return <Element className={className ? `${cardClass} ${className}` : cardClass} {...props} />;
}

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

const PILL_TONES = {
  brand: "bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  red: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  stone: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

/** Where an item of a list stands, as a tinted pill beside its title (answered, waiting, hidden, read). */
export function Pill({
  tone,
  size = "text-xs",
  children,
}: {
  tone: keyof typeof PILL_TONES;
  size?: "text-xs" | "text-sm";
  children: ReactNode;
}) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 ${size} font-semibold ${PILL_TONES[tone]}`}>{children}</span>
  );
}
