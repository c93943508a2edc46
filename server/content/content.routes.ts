import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import {
  contentIdParamSchema,
  createPostSchema,
  previewSchema,
  slugParamSchema,
  updateContentSchema,
} from "../../common/schemas/content-pages.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import {
  createPost,
  deleteContent,
  findPublished,
  getContent,
  listAllContent,
  listPublishedPosts,
  updateContent,
} from "./content.data.ts";
import { renderMarkdown } from "./render-markdown.ts";

/** The blog and the fixed pages as the shop shows them: published ones only, a draft is a 404. */
export function contentRoutes({ db, catalogue }: Deps) {
  return new Hono()
    .get("/posts", async (c) => c.json({ posts: await listPublishedPosts(db, catalogue) }))
    .get("/posts/:slug", validate("param", slugParamSchema), async (c) => {
      const post = await findPublished(db, catalogue, "post", c.req.valid("param").slug);
      if (!post) throw notFound("There is no such article.");
      return c.json(post);
    })
    .get("/pages/:slug", validate("param", slugParamSchema), async (c) => {
      const page = await findPublished(db, catalogue, "page", c.req.valid("param").slug);
      if (!page) throw notFound("There is no such page.");
      return c.json(page);
    });
}

/**
 * The owner's blog and pages (/admin/pages): list, open, write, publish, delete an article, and preview
 * Markdown exactly as the shop renders it. The guard runs before anything sent is read: 401 signed out,
 * 403 for staff and customers.
 */
export function adminContentRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", async (c) => c.json({ items: await listAllContent(db) }))
    .post("/", validate("json", createPostSchema), async (c) =>
      c.json(await createPost(db, c.req.valid("json"), c.get("owner")), 201),
    )
    .post("/preview", validate("json", previewSchema), (c) =>
      c.json({ html: renderMarkdown(c.req.valid("json").body) }),
    )
    .get("/:id", validate("param", contentIdParamSchema), async (c) =>
      c.json(await getContent(db, c.req.valid("param").id)),
    )
    .put("/:id", validate("param", contentIdParamSchema), validate("json", updateContentSchema), async (c) =>
      c.json(await updateContent(db, c.req.valid("param").id, c.req.valid("json"), c.get("owner"))),
    )
    .delete("/:id", validate("param", contentIdParamSchema), async (c) => {
      return c.json({ deleted: await deleteContent(db, c.req.valid("param").id, c.get("owner")) });
    });
}
