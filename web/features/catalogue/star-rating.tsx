const reviewCount = new Intl.NumberFormat("en-IN");

/** Five stars filled to the rating, with the number and the review count in words beside them. */
export function StarRating({ rating, reviews }: { rating: number; reviews: number }) {
  const filled = `${Math.min(100, Math.max(0, (rating / 5) * 100))}%`;
  return (
    <p className="flex items-center gap-2 text-sm">
      <span aria-hidden="true" className="relative inline-block text-base leading-none tracking-tight">
        <span className="text-stone-300 dark:text-stone-600">★★★★★</span>
        <span className="absolute inset-0 overflow-hidden text-amber-500" style={{ width: filled }}>
          ★★★★★
        </span>
      </span>
      <span>
        <span className="font-medium">{rating.toFixed(1)}</span>
        <span className="sr-only"> out of 5</span>
        <span className="text-stone-600 dark:text-stone-400">
          {" "}
          ({reviewCount.format(reviews)} {reviews === 1 ? "review" : "reviews"})
        </span>
      </span>
    </p>
  );
}
