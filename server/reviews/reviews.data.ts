import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type {
  AdminReview,
  AdminReviewPage,
  MyReview,
  PublicReview,
  RatingBreakdown,
  ReviewPage,
  ReviewSort,
  ReviewStatus,
  ReviewSummary,
} from "../../common/reviews.ts";
import { REVIEW_PAGE_SIZE } from "../../common/reviews.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { type Db, isUniqueViolation } from "../db/client.ts";
import { countRowsUpTo, type KeysetRequest, keysetQuery } from "../db/keyset.ts";
import { combos, orderLines, orders, products, reviews, users } from "../db/schema.ts";
import { getProduct } from "../products/products.data.ts";
import { queueAccountAction, takeAccountAllowance } from "../throttles/account-throttle.ts";

export const ADMIN_REVIEW_PAGE_SIZE = 50;

/** Whether the customer has a delivered order containing the product, on its own or inside a combo. */
export async function hasDeliveredOrderWith(db: Db, userId: string, productSlug: string): Promise<boolean> {
  const [row] = await db
    .select({ found: sql<number>`1` })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.status, "delivered"),
        sql`(${orderLines.itemId} = ${productSlug} or ${orderLines.itemId} in (
          select ${combos.id} from ${combos} where ${combos.productSlugs} @> jsonb_build_array(${productSlug}::text)))`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The name printed under a public review: the first word of the account's name, so a full name or an
 * e-mail-like name ("priya.sharma92") never shows in full. Deleted accounts read "Former customer".
 */
export function publicAuthorName(name: string | null): string {
  if (name === null) return "Former customer";
  const first = name
    .trim()
    .split(/[\s._@+\-0-9]+/)
    .find(Boolean);
  if (!first) return "Customer";
  const letters = Array.from(first).slice(0, 30);
  return (letters[0]?.toUpperCase() ?? "") + letters.slice(1).join("");
}

const reviewColumns = {
  id: reviews.id,
  productSlug: reviews.productSlug,
  productName: products.name,
  userId: reviews.userId,
  authorName: users.name,
  authorEmail: users.email,
  rating: reviews.rating,
  title: reviews.title,
  body: reviews.body,
  status: reviews.status,
  rejectionReason: reviews.rejectionReason,
  reply: reviews.reply,
  repliedAt: reviews.repliedAt,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
};

type ReviewRow = {
  id: string;
  productSlug: string;
  productName: string;
  userId: string | null;
  authorName: string | null;
  authorEmail: string | null;
  rating: number;
  title: string;
  body: string;
  status: ReviewStatus;
  rejectionReason: string | null;
  reply: string | null;
  repliedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

function selectReviews(db: Db) {
  return db
    .select(reviewColumns)
    .from(reviews)
    .innerJoin(products, eq(products.slug, reviews.productSlug))
    .leftJoin(users, eq(users.id, reviews.userId));
}

/**
 * The badge for every author and product of the listed reviews in one query (a page of 50 reviews used to
 * send 50), each pair answered by hasDeliveredOrderWith's rule through orders_user_id_created_at_id_idx.
 */
async function verifiedAuthors(db: Db, rows: ReviewRow[]): Promise<Set<string>> {
  const keys = new Map<string, { userId: string; productSlug: string }>();
  for (const row of rows) {
    if (row.userId)
      keys.set(`${row.userId} ${row.productSlug}`, { userId: row.userId, productSlug: row.productSlug });
  }
  if (keys.size === 0) return new Set();
  const pairs = [...keys.values()];
  const list = (values: string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const found = await db.execute<{ user_id: string; slug: string }>(sql`
    select k.user_id, k.slug
    from unnest(array[${list(pairs.map((pair) => pair.userId))}]::text[],
      array[${list(pairs.map((pair) => pair.productSlug))}]::text[]) as k(user_id, slug)
    where exists (
      select 1 from ${orders} o join ${orderLines} l on l.order_id = o.id
      where o.user_id = k.user_id and o.status = 'delivered'
        and (l.item_id = k.slug or l.item_id in (
          select c.id from ${combos} c where c.product_slugs @> jsonb_build_array(k.slug))))`);
  return new Set(found.rows.map((row) => `${row.user_id} ${row.slug}`));
}

function presentPublic(row: ReviewRow, verified: Set<string>): PublicReview {
  return {
    id: row.id,
    rating: row.rating,
    title: row.title,
    body: row.body,
    authorName: publicAuthorName(row.userId === null ? null : (row.authorName ?? "")),
    verifiedPurchase: verified.has(`${row.userId} ${row.productSlug}`),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    reply:
      row.reply !== null && row.repliedAt !== null
        ? { text: row.reply, repliedAt: row.repliedAt.toISOString() }
        : null,
  };
}

function presentMine(row: ReviewRow, verified: Set<string>): MyReview {
  return {
    ...presentPublic(row, verified),
    productSlug: row.productSlug,
    status: row.status,
    rejectionReason: row.rejectionReason,
  };
}

function presentForAdmin(row: ReviewRow, verified: Set<string>): AdminReview {
  return {
    ...presentMine(row, verified),
    product: { slug: row.productSlug, name: row.productName },
    author:
      row.userId === null || row.authorEmail === null
        ? null
        : { name: row.authorName ?? "", email: row.authorEmail },
  };
}

const sortOrders = {
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  highest: [desc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
  lowest: [asc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
} satisfies Record<ReviewSort, unknown[]>;

/** The rating shown everywhere, with the breakdown of the approved reviews behind it. */
export async function getReviewSummary(db: Db, productSlug: string): Promise<ReviewSummary | undefined> {
  const [product, counts] = await Promise.all([
    getProduct(db, productSlug),
    db
      .select({ stars: reviews.rating, count: count() })
      .from(reviews)
      .where(and(eq(reviews.productSlug, productSlug), eq(reviews.status, "approved")))
      .groupBy(reviews.rating),
  ]);
  if (!product) return undefined;
  const byStars = new Map(counts.map((row) => [row.stars, row.count]));
  const breakdown: RatingBreakdown = ([5, 4, 3, 2, 1] as const).map((stars) => ({
    stars,
    count: byStars.get(stars) ?? 0,
  }));
  return {
    rating: product.rating,
    ratingCount: product.reviewCount,
    approvedCount: breakdown.reduce((sum, row) => sum + row.count, 0),
    breakdown,
  };
}

/** A product's approved reviews, one page in the chosen order; undefined for an unknown product. */
export async function getReviewPage(
  db: Db,
  query: { productSlug: string; sort: ReviewSort; page: number },
): Promise<ReviewPage | undefined> {
  const summary = await getReviewSummary(db, query.productSlug);
  if (!summary) return undefined;
  const rows = await selectReviews(db)
    .where(and(eq(reviews.productSlug, query.productSlug), eq(reviews.status, "approved")))
    .orderBy(...sortOrders[query.sort])
    .limit(REVIEW_PAGE_SIZE)
    .offset((query.page - 1) * REVIEW_PAGE_SIZE);
  const verified = await verifiedAuthors(db, rows);
  return {
    summary,
    items: rows.map((row) => presentPublic(row, verified)),
    total: summary.approvedCount,
    page: query.page,
    pageSize: REVIEW_PAGE_SIZE,
    sort: query.sort,
  };
}

async function getReview(db: Db, id: string): Promise<ReviewRow | undefined> {
  const [row] = await selectReviews(db).where(eq(reviews.id, id));
  return row;
}

export async function getAdminReview(db: Db, id: string): Promise<AdminReview | undefined> {
  const row = await getReview(db, id);
  return row && presentForAdmin(row, await verifiedAuthors(db, [row]));
}

export async function getMyReview(db: Db, userId: string, productSlug: string): Promise<MyReview | null> {
  const [row] = await selectReviews(db).where(
    and(eq(reviews.userId, userId), eq(reviews.productSlug, productSlug)),
  );
  return row ? presentMine(row, await verifiedAuthors(db, [row])) : null;
}

type ReviewFields = { rating: number; title: string; body: string };

/**
 * A new review waits for approval. One per customer and product, held by a unique index under races; a
 * new one counts against the account's review allowance (a 429 past it), in the same transaction.
 */
export async function createReview(
  db: Db,
  input: ReviewFields & { userId: string; productSlug: string },
): Promise<{ review: MyReview } | { problem: "no-product" | "exists" }> {
  try {
    const problem = await db.transaction(async (tx) => {
      const [product] = await tx
        .select({ slug: products.slug })
        .from(products)
        .where(and(eq(products.slug, input.productSlug), eq(products.active, true)));
      if (!product) return "no-product" as const;
      // Waits for the account's other review requests, so a repeat is told it exists rather than counted.
      await queueAccountAction(tx, input.userId, "review");
      const [existing] = await tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.userId, input.userId), eq(reviews.productSlug, input.productSlug)));
      if (existing) return "exists" as const;
      await takeAccountAllowance(tx, input.userId, "review");
      await tx.insert(reviews).values({
        productSlug: input.productSlug,
        userId: input.userId,
        rating: input.rating,
        title: input.title,
        body: input.body,
      });
      return undefined;
    });
    if (problem) return { problem };
  } catch (error) {
    if (isUniqueViolation(error)) return { problem: "exists" };
    throw error;
  }
  const review = await getMyReview(db, input.userId, input.productSlug);
  if (!review) throw new Error("A review just written cannot be read back");
  return { review };
}

/** Another customer's review is "not found" too, so an id never confirms that a review exists. */
type OwnedChange = { problem: "not-found" };

async function getOwnReview(db: Db, id: string, userId: string): Promise<ReviewRow | undefined> {
  const [row] = await selectReviews(db).where(and(eq(reviews.id, id), eq(reviews.userId, userId)));
  return row;
}

/**
 * The author edits their review; a changed review goes back to the approval queue, since staff approved
 * other words. Saving it unchanged keeps its state.
 */
export async function updateReview(
  db: Db,
  input: ReviewFields & { id: string; userId: string },
): Promise<{ review: MyReview } | OwnedChange> {
  const current = await getOwnReview(db, input.id, input.userId);
  if (!current) return { problem: "not-found" };
  const changed =
    current.rating !== input.rating || current.title !== input.title || current.body !== input.body;
  if (changed) {
    await db
      .update(reviews)
      .set({
        rating: input.rating,
        title: input.title,
        body: input.body,
        status: "pending",
        rejectionReason: null,
        moderatedAt: null,
        moderatedBy: null,
      })
      .where(and(eq(reviews.id, input.id), eq(reviews.userId, input.userId)));
  }
  const review = await getMyReview(db, input.userId, current.productSlug);
  return review ? { review } : { problem: "not-found" };
}

export async function deleteReview(
  db: Db,
  input: { id: string; userId: string },
): Promise<{ deleted: true } | OwnedChange> {
  const current = await getOwnReview(db, input.id, input.userId);
  if (!current) return { problem: "not-found" };
  await db.delete(reviews).where(and(eq(reviews.id, input.id), eq(reviews.userId, input.userId)));
  return { deleted: true };
}

const REVIEW_KEYS = { at: reviews.createdAt, id: reviews.id };

const countOf = (db: Db, status: ReviewStatus) => countRowsUpTo(db, reviews, eq(reviews.status, status));

/**
 * Staff's list of one status, newest first by keyset (docs/decisions/034), read from
 * reviews_status_created_at_id_idx; each status's count stops at 10,000.
 */
export async function listReviewsForAdmin(
  db: Db,
  query: { status: ReviewStatus } & KeysetRequest,
): Promise<AdminReviewPage> {
  const keyset = keysetQuery(REVIEW_KEYS, query);
  const [rows, pending, approved, rejected] = await Promise.all([
    db
      .select({ ...reviewColumns, cursorAt: keyset.cursorAt })
      .from(reviews)
      .innerJoin(products, eq(products.slug, reviews.productSlug))
      .leftJoin(users, eq(users.id, reviews.userId))
      .where(and(eq(reviews.status, query.status), keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(ADMIN_REVIEW_PAGE_SIZE + 1),
    countOf(db, "pending"),
    countOf(db, "approved"),
    countOf(db, "rejected"),
  ]);
  const page = keyset.page(rows, ADMIN_REVIEW_PAGE_SIZE, (row) => row.id);
  const verified = await verifiedAuthors(db, page.items);
  const counts = { pending, approved, rejected };
  return {
    items: page.items.map((row) => presentForAdmin(row, verified)),
    counts,
    total: counts[query.status],
    pageSize: ADMIN_REVIEW_PAGE_SIZE,
    ...page.cursors,
  };
}

export async function moderateReview(
  db: Db,
  input: { id: string; adminId: string; actor: AuditActor } & (
    | { status: "approved" }
    | { status: "rejected"; reason: string }
  ),
): Promise<AdminReview | undefined> {
  const updated = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: reviews.status, rejectionReason: reviews.rejectionReason })
      .from(reviews)
      .where(eq(reviews.id, input.id))
      .for("update");
    if (!before) return undefined;
    const after = {
      status: input.status,
      rejectionReason: input.status === "rejected" ? input.reason : null,
    };
    await tx
      .update(reviews)
      .set({ ...after, moderatedAt: new Date(), moderatedBy: input.adminId })
      .where(eq(reviews.id, input.id));
    await recordAudit(tx, {
      actor: input.actor,
      entityType: "review",
      entityId: input.id,
      action: input.status === "approved" ? "approve" : "reject",
      before,
      after,
    });
    return { id: input.id };
  });
  return updated && getAdminReview(db, updated.id);
}

/** The shop's public reply under a review; null removes it. */
export async function setReviewReply(
  db: Db,
  id: string,
  reply: string | null,
  actor: AuditActor,
): Promise<AdminReview | undefined> {
  const updated = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ reply: reviews.reply })
      .from(reviews)
      .where(eq(reviews.id, id))
      .for("update");
    if (!before) return undefined;
    await tx
      .update(reviews)
      .set({ reply, repliedAt: reply === null ? null : new Date() })
      .where(eq(reviews.id, id));
    await recordAudit(tx, {
      actor,
      entityType: "review",
      entityId: id,
      action: reply === null ? "remove reply" : "reply",
      before,
      after: { reply },
    });
    return { id };
  });
  return updated && getAdminReview(db, updated.id);
}
