import { z } from "zod";
import { plainText } from "./text.ts";

/** A blog article (/blog/:slug) or one of the shop's fixed pages (/privacy, /terms ...). */
export const CONTENT_KINDS = ["post", "page"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/**
 * The fixed pages the shop's route table and footer link to (the specification's policy pages, and the
 * contact page's text): they are edited, never deleted or taken off the shop, so no link ever breaks.
 */
export const FIXED_PAGE_SLUGS = [
  "privacy",
  "terms",
  "cookie-policy",
  "shipping-delivery",
  "cancellation-refund",
  "contact",
] as const;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_BODY_CHARACTERS = 100_000;

/** What the blog's list shows of an article. */
export type PostSummary = {
  slug: string;
  title: string;
  description: string;
  author: string;
  /** YYYY-MM-DD, a calendar date in India. */
  publishedOn: string;
};

/** A published page or article as the shop shows it: its Markdown already made safe HTML on the server. */
export type PublishedContent = {
  kind: ContentKind;
  slug: string;
  title: string;
  description: string;
  author: string | null;
  publishedOn: string | null;
  /** Safe HTML, with {shopName}, {phone}, {email} and {grievanceEmail} still to fill. */
  html: string;
};

/** One row of the owner's list. */
export type ContentListItem = {
  id: number;
  kind: ContentKind;
  slug: string;
  title: string;
  published: boolean;
  publishedOn: string | null;
  updatedAt: string;
  /** Fixed pages are edited only: never deleted, never taken off the shop. */
  fixed: boolean;
};

/** A page or article as the owner edits it. */
export type ContentDetail = ContentListItem & {
  description: string;
  author: string | null;
  body: string;
  updatedBy: string | null;
};

const line = (label: string, max: number) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const body = plainText({ multiline: true, error: "The text is required." })
  .trim()
  .min(1, "The text is required.")
  .max(
    MAX_BODY_CHARACTERS,
    `The text must be at most ${MAX_BODY_CHARACTERS.toLocaleString("en-IN")} characters.`,
  );

const fields = {
  slug: plainText({ error: "The address is required." })
    .trim()
    .min(1, "The address is required.")
    .max(80, "The address must be at most 80 characters.")
    .regex(
      SLUG_PATTERN,
      "The address may use only small letters, digits and single hyphens (moringa-in-the-kitchen).",
    ),
  title: line("Title", 140),
  description: line("Summary", 300),
  author: line("Author", 80).nullable(),
  body,
  published: z.boolean({ error: "Published must be true or false." }),
  publishedOn: z.iso.date({ error: "The date must be a date (YYYY-MM-DD)." }).nullable(),
};

/** A new blog article (fixed pages are made by the migration, not by the owner). */
export const createPostSchema = z.object(fields).strict();
export type CreatePostInput = z.infer<typeof createPostSchema>;

/** The whole page as the owner saves it; a fixed page keeps its address and stays published. */
export const updateContentSchema = z.object(fields).strict();
export type UpdateContentInput = z.infer<typeof updateContentSchema>;

export const previewSchema = z.object({ body }).strict();

export const contentIdParamSchema = z.strictObject({
  // Ids are PostgreSQL integers: a larger number names no page (404 from the lookup), never a failed query.
  id: z.coerce
    .number({ error: "The id must be a number." })
    .int()
    .positive("The id must be a number.")
    .max(2_147_483_647, "There is no page with that id."),
});

/** A public address: any text that fails the slug rule cannot be a page, so it is a 404, not a 400. */
export const slugParamSchema = z.strictObject({ slug: plainText().max(200) });
