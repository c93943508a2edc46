import { useEffect, useId, useState } from "react";
import { Form, Link } from "react-router";
import { formatDateTime } from "../../../common/india-time.ts";
import {
  type AdminReview,
  REJECTION_REASON_MAX_LENGTH,
  REVIEW_REPLY_MAX_LENGTH,
} from "../../../common/reviews.ts";
import { Button } from "../../components/button.tsx";
import { cardClass, Pill } from "../../components/card.tsx";
import { errorTextClass, Field, Textarea } from "../../components/field.tsx";
import { Stars } from "../../components/stars.tsx";
import { useAdminAction } from "../../lib/admin-data.ts";

const STATUS_LABELS: Record<AdminReview["status"], string> = {
  pending: "Awaiting approval",
  approved: "Published",
  rejected: "Rejected",
};

/** One review for staff: approve it, reject it with a reason the author sees, reply to it in public. */
export function AdminReviewCard({ review }: { review: AdminReview }) {
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const { busy, result } = useAdminAction(review.id);
  const fieldError = (intent: string, field: string) =>
    result && !result.ok && result.intent === intent ? (result.fields?.[field] ?? result.error) : undefined;
  const reasonError = fieldError("reject", "reason");
  const rejected = result?.ok === true && result.intent === "reject";
  useEffect(() => {
    if (rejected) setRejecting(false);
  }, [rejected]);
  const replyError = fieldError("reply", "reply");

  return (
    <article className={cardClass} aria-labelledby={`${id}-title`}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-sm font-medium">
            <Link to={`/product/${review.product.slug}`} className="underline">
              {review.product.name}
            </Link>
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            <Stars rating={review.rating} label={`${review.rating} out of 5 stars`} />
            <h2 id={`${id}-title`} className="font-semibold break-words">
              {review.title}
            </h2>
          </div>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {review.author ? (
              <>
                {review.author.name} <span className="break-all">({review.author.email})</span>
              </>
            ) : (
              "A deleted account"
            )}{" "}
            · shown as “{review.authorName}” · {formatDateTime(review.createdAt)}
            {review.verifiedPurchase && " · Verified purchase"}
          </p>
        </div>
        <Pill tone={review.status === "approved" ? "brand" : review.status === "rejected" ? "red" : "amber"}>
          {STATUS_LABELS[review.status]}
        </Pill>
      </header>
      <p className="mt-3 whitespace-pre-line break-words">{review.body}</p>
      {review.status === "rejected" && review.rejectionReason && (
        <p className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          <span className="font-semibold">Reason given to the author: </span>
          <span className="whitespace-pre-line">{review.rejectionReason}</span>
        </p>
      )}

      <Form method="post" preventScrollReset className="mt-4 flex flex-wrap gap-2">
        <input type="hidden" name="id" value={review.id} />
        {review.status !== "approved" && (
          <Button type="submit" name="intent" value="approve" disabled={busy} size="sm">
            Approve
          </Button>
        )}
        {!rejecting && (
          <Button
            type="button"
            onClick={() => setRejecting(true)}
            disabled={busy}
            variant="danger-outline"
            size="sm"
          >
            {review.status === "rejected" ? "Change reason" : "Reject"}
          </Button>
        )}
      </Form>

      {rejecting && (
        <Form method="post" preventScrollReset className="mt-3">
          <input type="hidden" name="id" value={review.id} />
          <Field id={`${id}-reason`} label="Reason for rejecting (the author sees this)">
            <Textarea
              name="reason"
              rows={2}
              maxLength={REJECTION_REASON_MAX_LENGTH}
              defaultValue={review.rejectionReason ?? ""}
              required
              minLength={5}
              disabled={busy}
            />
          </Field>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              type="submit"
              name="intent"
              value="reject"
              disabled={busy}
              variant="danger-outline"
              size="sm"
            >
              Reject review
            </Button>
            <Button type="button" onClick={() => setRejecting(false)} variant="secondary" size="sm">
              Cancel
            </Button>
          </div>
        </Form>
      )}
      {reasonError && (
        <p role="alert" className={errorTextClass}>
          {reasonError}
        </p>
      )}

      <details className="mt-4" open={review.reply !== null}>
        <summary className="cursor-pointer py-2 text-sm font-medium">
          {review.reply ? "Public reply" : "Reply publicly"}
        </summary>
        <Form method="post" preventScrollReset className="mt-2">
          <input type="hidden" name="id" value={review.id} />
          <Field id={`${id}-reply`} label="Reply shown under the review" error={replyError} alert>
            <Textarea
              name="reply"
              rows={2}
              maxLength={REVIEW_REPLY_MAX_LENGTH}
              defaultValue={review.reply?.text ?? ""}
              key={review.reply?.text ?? ""}
              required
              disabled={busy}
            />
          </Field>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button type="submit" name="intent" value="reply" disabled={busy} variant="secondary" size="sm">
              {review.reply ? "Update reply" : "Publish reply"}
            </Button>
            {review.reply && (
              <Button
                type="submit"
                name="intent"
                value="remove-reply"
                formNoValidate
                disabled={busy}
                variant="danger-outline"
                size="sm"
              >
                Remove reply
              </Button>
            )}
          </div>
        </Form>
      </details>
      {result && !result.ok && !reasonError && !replyError && (
        <p role="alert" className={errorTextClass}>
          {result.error}
        </p>
      )}
    </article>
  );
}
