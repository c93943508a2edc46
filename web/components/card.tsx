/** The shop's one card: a bordered panel that groups one thing on a page. */
import type { HTMLAttributes } from "react";

export const cardClass =
  "rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-700 dark:bg-stone-900";

type CardProps = HTMLAttributes<HTMLElement> & { as?: "div" | "section" | "article" | "li" };

export function Card({ as: Element = "div", className, ...props }: CardProps) {
  return <Element className={className ? `${cardClass} ${className}` : cardClass} {...props} />;
}
