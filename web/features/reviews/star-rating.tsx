import { useId } from "react";

const STARS = [1, 2, 3, 4, 5] as const;

/** A radio group of five stars: arrow keys move between them, as in any radio group. */
export function StarRatingInput({
  value,
  onChange,
  disabled,
  error,
}: {
  value: number;
  onChange: (rating: number) => void;
  disabled?: boolean;
  error?: string | undefined;
}) {
  const name = useId();
  return (
    <fieldset disabled={disabled} aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-stone-800 dark:text-stone-200">Your rating</legend>
      <div className="flex gap-1">
        {STARS.map((star) => (
          <label key={star} className="cursor-pointer">
            <input
              type="radio"
              name={name}
              value={star}
              checked={value === star}
              onChange={() => onChange(star)}
              className="peer sr-only"
            />
            <span
              aria-hidden="true"
              className={`block rounded px-1 text-3xl leading-none peer-focus-visible:outline-3 peer-focus-visible:outline-amber-500 ${
                star <= value ? "text-amber-500" : "text-stone-300 dark:text-stone-600"
              }`}
            >
              ★
            </span>
            <span className="sr-only">
              {star} {star === 1 ? "star" : "stars"}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p
          id={`${name}-error`}
          role="alert"
          className="mt-1 text-sm font-medium text-red-700 dark:text-red-400"
        >
          {error}
        </p>
      )}
    </fieldset>
  );
}
