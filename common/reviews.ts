import type { KeysetPage, ListTotal } from "./lists.ts";
/** Product reviews: limits, response shapes and the rating arithmetic, shared by the API and the web app. */

export const REVIEW_TITLE_MAX_LENGTH = 120;
export const REVIEW_BODY_MIN_LENGTH = 20;
export const REVIEW_BODY_MAX_LENGTH = 2000;
export const REVIEW_REPLY_MAX_LENGTH = 2000;
export const REJECTION_REASON_MAX_LENGTH = 500;
export const REVIEW_PAGE_SIZE = 10;

export const REVIEW_SORTS = ["newest", "highest", "lowest"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
export const REVIEW_SORT_LABELS: Record<ReviewSort, string> = {
  newest: "Newest",
  highest: "Highest rating",
  lowest: "Lowest rating",
};

export const REVIEW_STATUSES = ["pending", "approved", "rejected"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export type ShopReply = { text: string; repliedAt: string };

export type PublicReview = {
  id: string;
  rating: number;
  title: string;
  body: string;
  /** A first name, or "Former customer" once the account is deleted; never an e-mail address. */
  authorName: string;
  verifiedPurchase: boolean;
  createdAt: string;
  updatedAt: string;
  reply: ShopReply | null;
};

/** The author's own review, whatever its state. */
export type MyReview = PublicReview & {
  productSlug: string;
  status: ReviewStatus;
  rejectionReason: string | null;
};

export type AdminReview = MyReview & {
  product: { slug: string; name: string };
  author: { name: string; email: string } | null;
};

export type RatingBreakdown = { stars: 1 | 2 | 3 | 4 | 5; count: number }[];

export type ReviewSummary = {
  /** The product's rating as shown everywhere: the catalogue's figure combined with approved reviews. */
  rating: number;
  /** The catalogue's review count plus the approved reviews. */
  ratingCount: number;
  /** Approved reviews written on this shop, which the breakdown counts. */
  approvedCount: number;
  breakdown: RatingBreakdown;
};

export type ReviewPage = {
  summary: ReviewSummary;
  items: PublicReview[];
  total: number;
  page: number;
  pageSize: number;
  sort: ReviewSort;
};

/** Staff's list of one status, newest first by keyset; each status's count stops at 10,000. */
export type AdminReviewPage = KeysetPage<AdminReview> & { counts: Record<ReviewStatus, ListTotal> };

/**
 * The catalogue's rating stands for `catalogueCount` earlier ratings; approved reviews join them as a
 * weighted average (one decimal, as the catalogue shows ratings) and a summed count.
 */
export function combineRatings(
  catalogue: { rating: number; count: number },
  approved: { count: number; ratingSum: number },
): { rating: number; count: number } {
  const count = catalogue.count + approved.count;
  if (approved.count === 0 || count === 0) return { rating: catalogue.rating, count };
  const average = (catalogue.rating * catalogue.count + approved.ratingSum) / count;
  return { rating: Math.round(average * 10) / 10, count };
}
