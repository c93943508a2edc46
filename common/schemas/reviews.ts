import { z } from "zod";
import { keysetQueryFields } from "../lists.ts";
import {
  REJECTION_REASON_MAX_LENGTH,
  REVIEW_BODY_MAX_LENGTH,
  REVIEW_BODY_MIN_LENGTH,
  REVIEW_REPLY_MAX_LENGTH,
  REVIEW_SORTS,
  REVIEW_STATUSES,
  REVIEW_TITLE_MAX_LENGTH,
} from "../reviews.ts";
import { slugSchema } from "./catalogue.ts";
import { pageSchema } from "./numbers.ts";
import { boundedText } from "./text.ts";

const page = pageSchema;

export const reviewFieldsSchema = z
  .object({
    rating: z
      .number({ error: "Please choose a rating from 1 to 5 stars." })
      .int("Please choose a rating from 1 to 5 stars.")
      .min(1, "Please choose a rating from 1 to 5 stars.")
      .max(5, "Please choose a rating from 1 to 5 stars."),
    title: boundedText("The title", 1, REVIEW_TITLE_MAX_LENGTH),
    body: boundedText("Your review", REVIEW_BODY_MIN_LENGTH, REVIEW_BODY_MAX_LENGTH),
  })
  .strict();

export const writeReviewSchema = reviewFieldsSchema.extend({ productSlug: slugSchema }).strict();

export const productReviewsQuerySchema = z
  .object({ product: slugSchema, sort: z.enum(REVIEW_SORTS).default("newest"), page })
  .strict();

export const myReviewQuerySchema = z.object({ product: slugSchema }).strict();

export const adminReviewQuerySchema = z
  .object({ status: z.enum(REVIEW_STATUSES).default("pending"), ...keysetQueryFields })
  .strict();

export const rejectReviewSchema = z
  .object({ reason: boundedText("The reason", 5, REJECTION_REASON_MAX_LENGTH) })
  .strict();

export const replyToReviewSchema = z
  .object({ reply: boundedText("The reply", 1, REVIEW_REPLY_MAX_LENGTH) })
  .strict();
