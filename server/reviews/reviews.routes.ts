import { Hono } from "hono";
import { z } from "zod";
import type { AdminReview } from "../../common/reviews.ts";
import {
  adminReviewQuerySchema,
  myReviewQuerySchema,
  productReviewsQuerySchema,
  rejectReviewSchema,
  replyToReviewSchema,
  reviewFieldsSchema,
  writeReviewSchema,
} from "../../common/schemas/reviews.ts";
import type { SessionUser } from "../auth/session.ts";
import { adminOnly, requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { validate } from "../validate.ts";
import {
  createReview,
  deleteReview,
  getMyReview,
  getReviewPage,
  listReviewsForAdmin,
  moderateReview,
  setReviewReply,
  updateReview,
} from "./reviews.data.ts";

const idParam = validate("param", z.object({ id: z.uuid("is not a valid id") }));
const noSuchProduct = () => notFound("No product with that name is in the catalogue.");
const noSuchReview = () => notFound("There is no such review.");

/** Reviews for shoppers: the approved ones, and the signed-in customer's own. */
export function reviewRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .get("/", validate("query", productReviewsQuerySchema), async (c) => {
      const { product, sort, page } = c.req.valid("query");
      const reviews = await getReviewPage(db, { productSlug: product, sort, page });
      if (!reviews) throw noSuchProduct();
      return c.json(reviews);
    })
    .get("/mine", validate("query", myReviewQuerySchema), async (c) => {
      const user = await requireUser(deps, c);
      return c.json({ review: await getMyReview(db, user.id, c.req.valid("query").product) });
    })
    .post("/", validate("json", writeReviewSchema), async (c) => {
      const user = await requireUser(deps, c);
      const result = await createReview(db, { userId: user.id, ...c.req.valid("json") });
      if ("problem" in result) {
        if (result.problem === "no-product") throw noSuchProduct();
        throw httpError(
          409,
          "review_exists",
          "You have already reviewed this product. You can edit or delete your review instead.",
        );
      }
      return c.json(result, 201);
    })
    .put("/:id", idParam, validate("json", reviewFieldsSchema), async (c) => {
      const user = await requireUser(deps, c);
      const result = await updateReview(db, {
        id: c.req.valid("param").id,
        userId: user.id,
        ...c.req.valid("json"),
      });
      if ("problem" in result) throw noSuchReview();
      return c.json(result);
    })
    .delete("/:id", idParam, async (c) => {
      const user = await requireUser(deps, c);
      const result = await deleteReview(db, { id: c.req.valid("param").id, userId: user.id });
      if ("problem" in result) throw noSuchReview();
      return c.json(result);
    });
}

/**
 * The admin role is checked before anything else (401 or 403), so a non-admin learns nothing, not even
 * which inputs would be valid.
 */
type AdminOnly = { Variables: { admin: SessionUser } };

/** Staff: approve, reject with a reason the author sees, reply in public. */
export function adminReviewRoutes(deps: Deps) {
  const { db } = deps;
  const moderate = async (
    id: string,
    admin: SessionUser,
    decision: { status: "approved" } | { status: "rejected"; reason: string },
  ) => {
    const review = await moderateReview(db, { id, adminId: admin.id, actor: admin, ...decision });
    if (!review) throw noSuchReview();
    return review;
  };
  return new Hono<AdminOnly>()
    .use(adminOnly(deps))
    .get("/", validate("query", adminReviewQuerySchema), async (c) => {
      return c.json(await listReviewsForAdmin(db, c.req.valid("query")));
    })
    .post("/:id/approve", idParam, async (c) => {
      const review = await moderate(c.req.valid("param").id, c.get("admin"), { status: "approved" });
      return c.json({ review });
    })
    .post("/:id/reject", idParam, validate("json", rejectReviewSchema), async (c) => {
      const { reason } = c.req.valid("json");
      const review = await moderate(c.req.valid("param").id, c.get("admin"), { status: "rejected", reason });
      return c.json({ review, authorNotified: await notifyRejection(deps, review) });
    })
    .put("/:id/reply", idParam, validate("json", replyToReviewSchema), async (c) => {
      const review = await setReviewReply(
        db,
        c.req.valid("param").id,
        c.req.valid("json").reply,
        c.get("admin"),
      );
      if (!review) throw noSuchReview();
      return c.json({ review });
    })
    .delete("/:id/reply", idParam, async (c) => {
      const review = await setReviewReply(db, c.req.valid("param").id, null, c.get("admin"));
      if (!review) throw noSuchReview();
      return c.json({ review });
    });
}

/** Tells the author why, and where to edit; the rejection stands even if the mail cannot be sent. */
async function notifyRejection({ db, env: shopEnv, mailer }: Deps, review: AdminReview): Promise<boolean> {
  if (!review.author || review.rejectionReason === null) return false;
  const env = await withOwnersShopName(db, shopEnv);
  const productUrl = `${env.PUBLIC_URL}/product/${review.product.slug}`;
  const text = [
    review.author.name ? `Hello ${review.author.name},` : "Hello,",
    `Thank you for reviewing ${review.product.name}. We could not publish your review "${review.title}":`,
    review.rejectionReason,
    `You can edit it on the product page, and we will look at it again: ${productUrl}`,
    env.SHOP_NAME,
  ].join("\n\n");
  try {
    await mailer.send({
      to: review.author.email,
      subject: `Your review of ${review.product.name} was not published`,
      text,
      html: textToHtml(text),
    });
    return true;
  } catch (error) {
    log.error({ reviewId: review.id, err: serializeError(error) }, "review rejection e-mail failed");
    return false;
  }
}
