/**
 * The shop's one drawing of a rating: five grey stars with gold laid over them to the exact fraction, so 4.5
 * shows four and a half stars wherever it is drawn (a card, a product's summary, a review). With a `label` it is
 * an image a screen reader names; without one it is decoration beside a rating written out in words.
 */
export function Stars({
  rating,
  size = "text-base",
  label,
}: {
  rating: number;
  size?: string;
  label?: string;
}) {
  const filled = `${Math.min(100, Math.max(0, (rating / 5) * 100))}%`;
  return (
    <span
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      className={`relative inline-block leading-none tracking-tight ${size}`}
    >
      <span aria-hidden="true" className="text-stone-300 dark:text-stone-600">
        ★★★★★
      </span>
      <span
        aria-hidden="true"
        className="absolute inset-0 overflow-hidden text-amber-500"
        style={{ width: filled }}
      >
        ★★★★★
      </span>
    </span>
  );
}
