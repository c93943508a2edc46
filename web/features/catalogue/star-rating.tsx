import { Stars } from "../../components/stars.tsx";

const reviewCount = new Intl.NumberFormat("en-IN");

/**
 * Five stars filled to the rating, then the number and the review count in words.
 * Compact (on cards) shows the count alone in brackets; a screen reader still hears "reviews".
 * `sourced` (the product page) says what the figures are: ratings, most of them given before this
 * online shop opened, not reviews a shopper can read here (docs/decisions/024).
 */
export function StarRating({
  rating,
  reviews,
  compact = false,
  sourced = false,
}: {
  rating: number;
  reviews: number;
  compact?: boolean;
  sourced?: boolean;
}) {
  const noun = sourced ? (reviews === 1 ? "rating" : "ratings") : reviews === 1 ? "review" : "reviews";
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm">
      <Stars rating={rating} />
      <span className={sourced ? undefined : "whitespace-nowrap"}>
        <span className="font-medium">{rating.toFixed(1)}</span>
        <span className="sr-only"> out of 5</span>
        <span className="text-stone-600 dark:text-stone-400">
          {" "}
          ({reviewCount.format(reviews)}
          {compact ? <span className="sr-only"> {noun}</span> : ` ${noun}`}
          {sourced && ", including ratings given before our online shop opened"})
        </span>
      </span>
    </p>
  );
}
