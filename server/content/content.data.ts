import { and, desc, eq, sql } from "drizzle-orm";
import { indianDate } from "../../common/india-time.ts";
import {
  type ContentDetail,
  type ContentKind,
  type ContentListItem,
  type CreatePostInput,
  FIXED_PAGE_SLUGS,
  type PostSummary,
  type PublishedContent,
  type UpdateContentInput,
} from "../../common/schemas/content-pages.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { CatalogueCache } from "../catalogue/catalogue-cache.ts";
import { type Db, isUniqueViolation, type Tx } from "../db/client.ts";
import { contentPages, users } from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
import { renderMarkdown } from "./render-markdown.ts";

type Row = typeof contentPages.$inferSelect;

const isFixed = (row: Pick<Row, "kind" | "slug">) =>
  row.kind === "page" && (FIXED_PAGE_SLUGS as readonly string[]).includes(row.slug);

const listItem = (row: Row): ContentListItem => ({
  id: row.id,
  kind: row.kind as ContentKind,
  slug: row.slug,
  title: row.title,
  published: row.published,
  publishedOn: row.publishedOn,
  updatedAt: row.updatedAt.toISOString(),
  fixed: isFixed(row),
});

/** Newest first, then by title: the blog's order. */
const newestFirst = [desc(contentPages.publishedOn), contentPages.title] as const;

/** The published articles for the blog's list, newest first. Remembered until any page or article changes. */
export function listPublishedPosts(db: Db, cache: CatalogueCache): Promise<PostSummary[]> {
  return cache.remember("content posts", async () => {
    const rows = await db
      .select()
      .from(contentPages)
      .where(and(eq(contentPages.kind, "post"), eq(contentPages.published, true)))
      .orderBy(...newestFirst);
    return rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      description: row.description,
      author: row.author ?? "",
      publishedOn: row.publishedOn ?? "",
    }));
  });
}

/** A published page or article with its HTML, or undefined: a draft is not there for the public. */
export function findPublished(
  db: Db,
  cache: CatalogueCache,
  kind: ContentKind,
  slug: string,
): Promise<PublishedContent | undefined> {
  return cache.remember(`content ${kind} ${slug}`, async () => {
    const [row] = await db
      .select()
      .from(contentPages)
      .where(and(eq(contentPages.kind, kind), eq(contentPages.slug, slug), eq(contentPages.published, true)));
    if (!row) return undefined;
    return {
      kind,
      slug: row.slug,
      title: row.title,
      description: row.description,
      author: row.author,
      publishedOn: row.publishedOn,
      html: renderMarkdown(row.body),
    };
  });
}

/** What the sitemap lists: published pages and articles, each with the day it last changed. */
export async function listPublishedPaths(
  db: Pick<Db, "select">,
): Promise<{ path: string; lastmod: string }[]> {
  const rows = await db
    .select({ kind: contentPages.kind, slug: contentPages.slug, updatedAt: contentPages.updatedAt })
    .from(contentPages)
    .where(eq(contentPages.published, true))
    .orderBy(contentPages.kind, contentPages.slug);
  const day = (moment: Date) => indianDate(moment);
  const posts = rows.filter((row) => row.kind === "post");
  const newestPost = posts.reduce<Date | undefined>(
    (latest, row) => (!latest || row.updatedAt > latest ? row.updatedAt : latest),
    undefined,
  );
  return [
    ...rows
      .filter((row) => row.kind === "page")
      .map((row) => ({ path: `/${row.slug}`, lastmod: day(row.updatedAt) })),
    ...(newestPost ? [{ path: "/blog", lastmod: day(newestPost) }] : []),
    ...posts.map((row) => ({ path: `/blog/${row.slug}`, lastmod: day(row.updatedAt) })),
  ];
}

export async function listAllContent(db: Pick<Db, "select">): Promise<ContentListItem[]> {
  const rows = await db
    .select()
    .from(contentPages)
    .orderBy(contentPages.kind, ...newestFirst);
  return rows.map(listItem);
}

async function readDetail(db: Pick<Db, "select">, id: number): Promise<ContentDetail | undefined> {
  const [found] = await db
    .select({ row: contentPages, updatedBy: users.email })
    .from(contentPages)
    .leftJoin(users, eq(users.id, contentPages.updatedBy))
    .where(eq(contentPages.id, id));
  if (!found) return undefined;
  const { row } = found;
  return {
    ...listItem(row),
    description: row.description,
    author: row.author,
    body: row.body,
    updatedBy: found.updatedBy,
  };
}

export async function getContent(db: Pick<Db, "select">, id: number): Promise<ContentDetail> {
  const detail = await readDetail(db, id);
  if (!detail) throw notFound("No such page or article.");
  return detail;
}

/** The fields the audit log shows: the text itself only by its length, which says whether it changed. */
const auditView = (detail: ContentDetail) => ({
  kind: detail.kind,
  slug: detail.slug,
  title: detail.title,
  description: detail.description,
  author: detail.author,
  published: detail.published,
  publishedOn: detail.publishedOn,
  body: `${detail.body.length} characters`,
});

const slugTaken = (slug: string) =>
  httpError(409, "slug_taken", `Another article already has the address /blog/${slug}. Choose another.`, {
    slug: "is used by another article",
  });

/** A published page needs a date; the owner's, or today in India when first published. */
const publishedOnFor = (
  input: Pick<UpdateContentInput, "published" | "publishedOn">,
  current: string | null,
) => input.publishedOn ?? current ?? (input.published ? indianDate(new Date()) : null);

async function saving<T>(work: () => Promise<T>, slug: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, "content_pages_kind_slug")) throw slugTaken(slug);
    throw error;
  }
}

export function createPost(db: Db, input: CreatePostInput, actor: AuditActor): Promise<ContentDetail> {
  return saving(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contentPages)
          .values({
            kind: "post",
            slug: input.slug,
            title: input.title,
            description: input.description,
            author: input.author,
            body: input.body,
            published: input.published,
            publishedOn: publishedOnFor(input, null),
            updatedBy: actor.id,
          })
          .returning({ id: contentPages.id });
        const created = await getContent(tx, row?.id ?? 0);
        await recordAudit(tx, {
          actor,
          entityType: "page",
          entityId: `post/${created.slug}`,
          action: "create_post",
          after: auditView(created),
        });
        return created;
      }),
    input.slug,
  );
}

async function lockedDetail(tx: Tx, id: number): Promise<ContentDetail> {
  await tx.select({ id: contentPages.id }).from(contentPages).where(eq(contentPages.id, id)).for("update");
  return getContent(tx, id);
}

export function updateContent(
  db: Db,
  id: number,
  input: UpdateContentInput,
  actor: AuditActor,
): Promise<ContentDetail> {
  return saving(
    () =>
      db.transaction(async (tx) => {
        const before = await lockedDetail(tx, id);
        if (before.fixed && input.slug !== before.slug) {
          throw httpError(
            422,
            "fixed_page",
            `The shop links to /${before.slug}: its address cannot change.`,
            {
              slug: "cannot change on this page",
            },
          );
        }
        if (before.fixed && !input.published) {
          throw httpError(
            422,
            "fixed_page",
            `The shop's footer links to /${before.slug}: it stays published. Edit its text instead.`,
            { published: "this page stays published" },
          );
        }
        await tx
          .update(contentPages)
          .set({
            slug: input.slug,
            title: input.title,
            description: input.description,
            author: before.kind === "post" ? input.author : null,
            body: input.body,
            published: input.published,
            publishedOn: publishedOnFor(input, before.publishedOn),
            updatedBy: actor.id,
            updatedAt: sql`now()`,
          })
          .where(eq(contentPages.id, id));
        const after = await getContent(tx, id);
        await recordAudit(tx, {
          actor,
          entityType: "page",
          entityId: `${after.kind}/${after.slug}`,
          action:
            before.published === after.published
              ? "update_page"
              : after.published
                ? "publish_page"
                : "unpublish_page",
          before: auditView(before),
          after: auditView(after),
        });
        return after;
      }),
    input.slug,
  );
}

/** Deletes an article; returns its address, which is free again. */
export function deleteContent(db: Db, id: number, actor: AuditActor): Promise<{ id: number; slug: string }> {
  return db.transaction(async (tx) => {
    const before = await lockedDetail(tx, id);
    if (before.kind !== "post") {
      throw httpError(
        422,
        "fixed_page",
        `The shop links to /${before.slug}: it cannot be deleted. Edit its text instead.`,
      );
    }
    await tx.delete(contentPages).where(eq(contentPages.id, id));
    await recordAudit(tx, {
      actor,
      entityType: "page",
      entityId: `post/${before.slug}`,
      action: "delete_post",
      before: auditView(before),
    });
    return { id, slug: before.slug };
  });
}
