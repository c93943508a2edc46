import { useCallback, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { SessionUser } from "../../../common/account.ts";
import { formatDate } from "../../../common/india-time.ts";
import { withRedirect } from "../../../common/redirect-target.ts";
import {
  type MyReview,
  type PublicReview,
  REVIEW_SORT_LABELS,
  REVIEW_SORTS,
  type ReviewPage,
  type ReviewSort,
  type ReviewSummary,
} from "../../../common/reviews.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { errorTextClass, hintClass, Options } from "../../components/field.tsx";
import { Stars } from "../../components/stars.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { fetchSessionUser } from "../../lib/session-user.ts";
import { ReviewForm } from "./review-form.tsx";

const reviewsPath = (slug: string, sort: ReviewSort, page: number) =>
  `/reviews?product=${encodeURIComponent(slug)}&sort=${sort}&page=${page}`;

const messageOf = (error: unknown) => (isApiError(error) ? error.message : String(error));

/**
 * Reviews on a product page: the rating with its breakdown, the approved reviews in the chosen order, and
 * the signed-in customer's own review (write, edit, delete, see whether it is published). Sorting and
 * "show more" are interactive, so it fetches its own data.
 */
export function ProductReviews({ slug }: { slug: string }) {
  const sortId = useId();
  const [sort, setSort] = useState<ReviewSort>("newest");
  const [pages, setPages] = useState<ReviewPage[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((count) => count + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change in `reloads` is the request to read again
  useEffect(() => {
    let current = true;
    setListError(null);
    api<ReviewPage>(reviewsPath(slug, sort, 1))
      .then((page) => current && setPages([page]))
      .catch((error: unknown) => current && setListError(messageOf(error)));
    return () => {
      current = false;
    };
  }, [slug, sort, reloads]);

  async function showMore() {
    const last = pages.at(-1);
    if (!last) return;
    setLoadingMore(true);
    try {
      const next = await api<ReviewPage>(reviewsPath(slug, sort, last.page + 1));
      setPages((loaded) => [...loaded, next]);
    } catch (error) {
      setListError(messageOf(error));
    } finally {
      setLoadingMore(false);
    }
  }

  const first = pages[0];
  const reviews = pages.flatMap((page) => page.items);

  return (
    <section aria-labelledby="reviews-heading" className="mt-10">
      <h2 id="reviews-heading" className="font-serif text-2xl font-semibold">
        Customer reviews
      </h2>
      {first && <RatingSummary summary={first.summary} />}
      <OwnReview slug={slug} onChanged={reload} />
      {listError && (
        <p role="alert" className={errorTextClass}>
          The reviews could not be loaded: {listError}
        </p>
      )}
      {!first && !listError && <p className={hintClass}>Loading reviews…</p>}
      {first && first.total > 0 && (
        <>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-stone-700 dark:text-stone-300">
              {first.total} {first.total === 1 ? "review" : "reviews"} written on our shop
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor={sortId} className="text-sm font-medium">
                Sort reviews
              </label>
              <select
                id={sortId}
                value={sort}
                onChange={(event) => setSort(event.target.value as ReviewSort)}
                className="min-h-11 rounded-md border border-stone-300 bg-white px-2 py-1 dark:border-stone-600 dark:bg-stone-900"
              >
                <Options values={REVIEW_SORTS} labels={REVIEW_SORT_LABELS} />
              </select>
            </div>
          </div>
          <ul aria-label="Reviews" className="mt-4 space-y-4">
            {reviews.map((review) => (
              <li key={review.id} className={cardClass}>
                <ReviewBody review={review} />
              </li>
            ))}
          </ul>
          {reviews.length < first.total && (
            <Button
              type="button"
              onClick={showMore}
              disabled={loadingMore}
              variant="secondary"
              size="sm"
              className="mt-4"
            >
              {loadingMore ? "Loading…" : "Show more reviews"}
            </Button>
          )}
        </>
      )}
      {first && first.total === 0 && (
        <p className="mt-4 text-stone-700 dark:text-stone-300">
          No reviews have been written on our shop yet.
        </p>
      )}
    </section>
  );
}

function RatingSummary({ summary }: { summary: ReviewSummary }) {
  const largest = Math.max(1, ...summary.breakdown.map((row) => row.count));
  return (
    <div className="mt-4 grid gap-6 sm:grid-cols-[auto_1fr] sm:items-center">
      <div>
        <p className="text-4xl font-semibold">
          {summary.rating.toFixed(1)}
          <span className="text-base font-normal text-stone-600 dark:text-stone-400"> out of 5</span>
        </p>
        <Stars rating={summary.rating} size="text-xl" label={`${summary.rating} out of 5 stars`} />
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Based on {summary.ratingCount.toLocaleString("en-IN")}{" "}
          {summary.ratingCount === 1 ? "rating" : "ratings"}
          {summary.approvedCount === 0
            ? ", given before our online shop opened"
            : summary.approvedCount < summary.ratingCount &&
              `: ${summary.approvedCount.toLocaleString("en-IN")} in reviews on our shop, the others given before it opened`}
        </p>
      </div>
      {summary.approvedCount > 0 && (
        <div>
          <p className="mb-2 text-sm font-medium">Ratings in reviews on our shop</p>
          <ul className="max-w-md space-y-1">
            {summary.breakdown.map((row) => (
              <li key={row.stars} className="grid grid-cols-[4rem_1fr_2.5rem] items-center gap-2 text-sm">
                <span>
                  {row.stars} {row.stars === 1 ? "star" : "stars"}
                </span>
                <span
                  aria-hidden="true"
                  className="h-2.5 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
                >
                  <span
                    className="block h-full rounded-full bg-amber-500"
                    style={{ width: `${(row.count / largest) * 100}%` }}
                  />
                </span>
                <span className="text-right tabular-nums">
                  {row.count}
                  <span className="sr-only"> {row.count === 1 ? "review" : "reviews"}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function ReviewBody({ review }: { review: PublicReview }) {
  return (
    <article>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={review.rating} label={`${review.rating} out of 5 stars`} />
        <h3 className="font-semibold break-words">{review.title}</h3>
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600 dark:text-stone-400">
        <span>{review.authorName}</span>
        <span aria-hidden="true">·</span>
        <span>{formatDate(review.createdAt)}</span>
        {review.verifiedPurchase && (
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
            Verified purchase
          </span>
        )}
      </p>
      <p className="mt-2 whitespace-pre-line break-words">{review.body}</p>
      {review.reply && (
        <div className="mt-3 rounded-md border-l-4 border-brand-600 bg-stone-50 p-3 dark:bg-stone-950">
          <p className="text-sm font-semibold">Reply from the shop · {formatDate(review.reply.repliedAt)}</p>
          <p className="mt-1 whitespace-pre-line break-words text-sm">{review.reply.text}</p>
        </div>
      )}
    </article>
  );
}

const STATUS_TEXT: Record<MyReview["status"], { label: string; className: string }> = {
  pending: {
    label: "Awaiting approval",
    className: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  },
  approved: {
    label: "Published",
    className: "bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100",
  },
  rejected: {
    label: "Not published",
    className: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  },
};

/** The signed-in customer's own review of this product, whatever its state, with what they can do with it. */
function OwnReview({ slug, onChanged }: { slug: string; onChanged: () => void }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const [mine, setMine] = useState<MyReview | null>(null);
  const [mode, setMode] = useState<"view" | "edit" | "confirm-delete">("view");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setMode("view");
    setNotice(null);
    fetchSessionUser()
      .then(async (signedIn) => {
        const own = signedIn
          ? (await api<{ review: MyReview | null }>(`/reviews/mine?product=${encodeURIComponent(slug)}`))
              .review
          : null;
        if (!current) return;
        setUser(signedIn);
        setMine(own);
      })
      .catch((caught: unknown) => current && setError(messageOf(caught)));
    return () => {
      current = false;
    };
  }, [slug]);

  async function remove() {
    if (!mine) return;
    setBusy(true);
    setError(null);
    try {
      await api(`/reviews/${mine.id}`, { method: "DELETE" });
      setMine(null);
      setMode("view");
      setNotice("Your review has been deleted.");
      onChanged();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  function saved(review: MyReview) {
    setMine(review);
    setMode("view");
    setNotice(
      review.status === "pending"
        ? "Thank you! Your review will appear once the shop has approved it."
        : "Your review is saved.",
    );
    onChanged();
  }

  if (user === undefined) return null;
  return (
    <div className="mt-6">
      <p role="status" className="mb-2 text-brand-800 empty:hidden dark:text-brand-100">
        {notice}
      </p>
      {error && (
        <p role="alert" className={errorTextClass}>
          {error}
        </p>
      )}
      {user === null && (
        <Link
          to={withRedirect("/login", `/product/${slug}`)}
          className="font-medium text-brand-700 underline dark:text-brand-100"
        >
          Sign in to write a review
        </Link>
      )}
      {user && !mine && mode !== "edit" && (
        <Button type="button" onClick={() => setMode("edit")} size="sm">
          Write a review
        </Button>
      )}
      {user && mode === "edit" && (
        <div className={cardClass}>
          <h3 className="mb-3 text-lg font-semibold">{mine ? "Edit your review" : "Write a review"}</h3>
          <ReviewForm
            key={mine?.id ?? "new"}
            slug={slug}
            existing={mine}
            onSaved={saved}
            onCancel={() => setMode("view")}
          />
        </div>
      )}
      {user && mine && mode !== "edit" && (
        <section className={cardClass} aria-labelledby="own-review-heading">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <h3 id="own-review-heading" className="text-lg font-semibold">
              Your review
            </h3>
            <span
              className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${STATUS_TEXT[mine.status].className}`}
            >
              {STATUS_TEXT[mine.status].label}
            </span>
          </div>
          {mine.status === "rejected" && mine.rejectionReason && (
            <p className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
              <span className="font-semibold">Why it was not published: </span>
              <span className="whitespace-pre-line">{mine.rejectionReason}</span>
              <br />
              Edit your review and we will read it again.
            </p>
          )}
          <ReviewBody review={mine} />
          {mode === "confirm-delete" ? (
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <p className="font-medium">Delete your review for good?</p>
              <Button type="button" onClick={remove} disabled={busy} variant="danger-outline" size="sm">
                {busy ? "Deleting…" : "Yes, delete it"}
              </Button>
              <Button
                type="button"
                onClick={() => setMode("view")}
                disabled={busy}
                variant="secondary"
                size="sm"
              >
                Keep it
              </Button>
            </div>
          ) : (
            <div className="mt-4 flex flex-wrap gap-3">
              <Button type="button" onClick={() => setMode("edit")} variant="secondary" size="sm">
                Edit review
              </Button>
              <Button
                type="button"
                onClick={() => setMode("confirm-delete")}
                variant="danger-outline"
                size="sm"
              >
                Delete review
              </Button>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
