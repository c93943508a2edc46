import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import {
  type MyReview,
  REVIEW_BODY_MAX_LENGTH,
  REVIEW_BODY_MIN_LENGTH,
  REVIEW_TITLE_MAX_LENGTH,
} from "../../../common/reviews.ts";
import { textLength } from "../../../common/schemas/text.ts";
import { Button } from "../../components/button.tsx";
import { controlClass, errorTextClass, FieldError, hintClass, labelClass } from "../../components/field.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { StarRatingInput } from "./star-rating.tsx";

type Fields = { rating: number; title: string; body: string };
type FieldErrors = Partial<Record<keyof Fields | "form", string>>;

/** Checks the form would pass the server's rules, with the server's own wording. */
function checkFields({ rating, title, body }: Fields): FieldErrors {
  const errors: FieldErrors = {};
  if (rating < 1) errors.rating = "Please choose a rating from 1 to 5 stars.";
  if (title.trim() === "") errors.title = "The title is required.";
  const bodyLength = textLength(body.trim());
  if (bodyLength === 0) errors.body = "Your review is required.";
  else if (bodyLength < REVIEW_BODY_MIN_LENGTH) {
    errors.body = `Your review must be at least ${REVIEW_BODY_MIN_LENGTH} characters long (it has ${bodyLength}).`;
  }
  return errors;
}

/** Writes a new review, or edits the customer's own (which then waits for approval again). */
export function ReviewForm({
  slug,
  existing,
  onSaved,
  onCancel,
}: {
  slug: string;
  existing: MyReview | null;
  onSaved: (review: MyReview) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>({
    rating: existing?.rating ?? 0,
    title: existing?.title ?? "",
    body: existing?.body ?? "",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [attempts, setAttempts] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const set = (change: Partial<Fields>) => setFields((current) => ({ ...current, ...change }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = checkFields(fields);
    setErrors(problems);
    setAttempts((count) => count + 1);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    try {
      const { review } = existing
        ? await api<{ review: MyReview }>(`/reviews/${existing.id}`, { method: "PUT", body: fields })
        : await api<{ review: MyReview }>("/reviews", {
            method: "POST",
            body: { productSlug: slug, ...fields },
          });
      onSaved(review);
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      const fieldErrors = caught.fields ?? {};
      setErrors({
        rating: fieldErrors.rating,
        title: fieldErrors.title,
        body: fieldErrors.body,
        form: caught.fields ? undefined : caught.message,
      });
      setAttempts((count) => count + 1);
    } finally {
      setSaving(false);
    }
  }

  // After a refused attempt, the first field to fix gets the focus, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (attempts === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>(
      '[aria-invalid="true"], fieldset[aria-describedby] input',
    );
    invalid?.focus();
  }, [attempts]);

  const describedBy = (field: keyof Fields, hint?: string) =>
    [hint, errors[field] ? `${id}-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
      <StarRatingInput
        value={fields.rating}
        onChange={(rating) => set({ rating })}
        disabled={saving}
        error={errors.rating}
      />
      <div>
        <label htmlFor={`${id}-title`} className={labelClass}>
          Title
        </label>
        <input
          id={`${id}-title`}
          name="title"
          value={fields.title}
          maxLength={REVIEW_TITLE_MAX_LENGTH}
          onChange={(event) => set({ title: event.target.value })}
          disabled={saving}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={describedBy("title")}
          className={controlClass}
        />
        <FieldError id={`${id}-title-error`} error={errors.title} />
      </div>
      <div>
        <label htmlFor={`${id}-body`} className={labelClass}>
          Your review
        </label>
        <textarea
          id={`${id}-body`}
          name="body"
          rows={5}
          value={fields.body}
          onChange={(event) => set({ body: event.target.value })}
          disabled={saving}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={describedBy("body", `${id}-body-hint`)}
          className={controlClass}
        />
        <p id={`${id}-body-hint`} className={hintClass}>
          {REVIEW_BODY_MIN_LENGTH} to {REVIEW_BODY_MAX_LENGTH} characters ({textLength(fields.body)} written).
          Reviews are published once the shop has read them.
        </p>
        <FieldError id={`${id}-body-error`} error={errors.body} />
      </div>
      {errors.form && (
        <p role="alert" className={errorTextClass}>
          {errors.form}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={saving} size="sm">
          {saving ? "Saving…" : existing ? "Save changes" : "Submit review"}
        </Button>
        {onCancel && (
          <Button type="button" onClick={onCancel} disabled={saving} variant="secondary" size="sm">
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
