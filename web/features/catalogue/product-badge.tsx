import type { Badge } from "../../../common/catalogue.ts";

/** The spec: each of the five product badges has its own colour; any other label is grey. */
const BADGE_COLOURS: Record<Badge, string> = {
  "Best Seller": "bg-amber-400 text-stone-950",
  "New Launch": "bg-sky-700 text-white",
  Viral: "bg-fuchsia-700 text-white",
  "Limited Time": "bg-orange-700 text-white",
  "Legacy Product": "bg-teal-700 text-white",
};
const OTHER_BADGE = "bg-stone-600 text-white";

export function badgeColours(badge: string): string {
  return BADGE_COLOURS[badge as Badge] ?? OTHER_BADGE;
}

const pill = "inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold tracking-wide whitespace-nowrap";

/** A product's or a combo's badge (combos have their own labels, such as Most Popular). */
export function ProductBadge({ badge, className = "" }: { badge: string | null; className?: string }) {
  if (!badge) return null;
  return <span className={`${pill} ${badgeColours(badge)} ${className}`}>{badge}</span>;
}

/** Shown when the original price is above the price. */
export function SaleTag({ className = "" }: { className?: string }) {
  return <span className={`${pill} bg-red-700 text-white uppercase ${className}`}>Sale</span>;
}

export const isOnSale = (
  pricePaise: number,
  originalPricePaise: number | null,
): originalPricePaise is number => originalPricePaise !== null && originalPricePaise > pricePaise;
