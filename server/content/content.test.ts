import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ContentDetail,
  ContentListItem,
  CreatePostInput,
  PostSummary,
  PublishedContent,
} from "../../common/schemas/content-pages.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, callApi, setUpTestApp, startSecondInstance } from "../../tests/database.ts";
import { auditLog } from "../db/schema.ts";

// Two instances on one database, each with its own pool and listener, as two processes would be.
const shop = setUpTestApp();
let second: ReturnType<typeof startSecondInstance>;
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
beforeAll(async () => {
  second = startSecondInstance(shop);
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "pages"));
});
afterAll(() => second?.end());

const api = apiCaller(shop, () => owner);

const pageAudit = async () =>
  (await shop.db.select().from(auditLog)).filter((entry) => entry.entityType === "page");

const POST: CreatePostInput = {
  slug: "neem-for-scalp-care",
  title: "Neem for scalp care",
  description: "How neem leaves have been used for the scalp, and how to use them today.",
  author: "The {shopName} team",
  body: "Neem is **bitter** and [much loved](/blog).\n\n## Steps\n\n- Boil\n- Cool\n",
  published: false,
  publishedOn: null,
};

const itemBySlug = async (slug: string) =>
  ((await api("GET", "/admin/pages")).body.items as ContentListItem[]).find((item) => item.slug === slug);

describe("the pages the shop shipped with", () => {
  it("are in the database, published, and render to the HTML the shop showed", async () => {
    const { status, body } = await api("GET", "/content/posts", undefined, null);
    expect(status).toBe(200);
    const posts = body.posts as PostSummary[];
    expect(posts.map((post) => post.slug)).toEqual([
      "ubtan-and-bath-powders-for-children-and-adults",
      "henna-indigo-hair-dye-at-home",
      "weekly-natural-hair-care-routine",
      "moringa-curry-leaves-sathu-maavu-in-indian-kitchens",
    ]);
    expect(posts[0]?.publishedOn).toMatch(/^2026-\d\d-\d\d$/);

    const privacy = (await api("GET", "/content/pages/privacy", undefined, null)).body as PublishedContent;
    expect(privacy.title).toBe("Privacy Policy");
    expect(privacy.html).toContain('<a href="/cookie-policy">Cookie Policy</a>');
    expect(privacy.html).toContain("{shopName}");
    expect(privacy.html).not.toContain("<h1>");

    const items = (await api("GET", "/admin/pages")).body.items as ContentListItem[];
    expect(
      items
        .filter((item) => item.kind === "page" && item.fixed)
        .map((item) => item.slug)
        .sort(),
    ).toEqual(["cancellation-refund", "contact", "cookie-policy", "privacy", "shipping-delivery", "terms"]);
  });
});

describe("/api/admin/pages: who may", () => {
  it("answers 401 signed out, 403 to staff and customers, and changes nothing", async () => {
    const privacy = await itemBySlug("privacy");
    const requests = [
      ["GET", "/admin/pages", undefined],
      ["POST", "/admin/pages", POST],
      ["POST", "/admin/pages/preview", { body: "# Hi" }],
      ["GET", `/admin/pages/${privacy?.id}`, undefined],
      ["PUT", `/admin/pages/${privacy?.id}`, { ...POST, slug: "privacy", author: null, published: true }],
      ["DELETE", `/admin/pages/${privacy?.id}`, undefined],
    ] as const;
    for (const [method, path, body] of requests) {
      expect((await api(method, path, body, null)).status, `${method} ${path} signed out`).toBe(401);
      for (const who of [staff, customer]) {
        const refused = await api(method, path, body, who);
        expect(refused.status, `${method} ${path} as ${who.email}`).toBe(403);
        expect(refused.body).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
      }
    }
    expect(await pageAudit()).toEqual([]);
    expect(await itemBySlug(POST.slug)).toBeUndefined();
  });

  it("answers an id beyond PostgreSQL's integers as bad input, not a failed query (issue 40)", async () => {
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      const body = method === "PUT" ? { ...POST, author: null, published: true } : undefined;
      const answer = await api(method, "/admin/pages/2147483648", body, owner);
      expect(answer.status, method).toBe(400);
      expect(answer.body.error.code, method).toBe("invalid_request");
    }
  });
});

describe("/api/admin/pages: what is refused", () => {
  it("names the field for a bad address, a missing title, an unknown field", async () => {
    const bad = await api("POST", "/admin/pages", { ...POST, slug: "Neem For Scalp" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", fields: { slug: expect.any(String) } });
    const noTitle = await api("POST", "/admin/pages", { ...POST, title: "  " });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error.fields).toEqual({ title: "Title is required." });
    const extra = await api("POST", "/admin/pages", { ...POST, kind: "page" });
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields).toEqual({ kind: "is not accepted here" });
    const badId = await api("GET", "/admin/pages/abc");
    expect(badId.status).toBe(400);
    expect((await api("GET", "/admin/pages/999999")).status).toBe(404);
  });

  it("refuses an address another article has with a 409, and keeps a fixed page's address and publication", async () => {
    const taken = await api("POST", "/admin/pages", { ...POST, slug: "henna-indigo-hair-dye-at-home" });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "slug_taken", fields: { slug: expect.any(String) } });

    const terms = (await api("GET", `/admin/pages/${(await itemBySlug("terms"))?.id}`)).body as ContentDetail;
    const moved = await api("PUT", `/admin/pages/${terms.id}`, {
      slug: "conditions",
      title: terms.title,
      description: terms.description,
      author: null,
      body: terms.body,
      published: true,
      publishedOn: terms.publishedOn,
    });
    expect(moved.status).toBe(422);
    expect(moved.body.error).toMatchObject({ code: "fixed_page", fields: { slug: expect.any(String) } });
    const hidden = await api("PUT", `/admin/pages/${terms.id}`, {
      slug: "terms",
      title: terms.title,
      description: terms.description,
      author: null,
      body: terms.body,
      published: false,
      publishedOn: terms.publishedOn,
    });
    expect(hidden.status).toBe(422);
    const deleted = await api("DELETE", `/admin/pages/${terms.id}`);
    expect(deleted.status).toBe(422);
    expect(deleted.body.error.code).toBe("fixed_page");
    expect((await api("GET", "/content/pages/terms", undefined, null)).status).toBe(200);
    expect(await pageAudit()).toEqual([]);
  });
});

describe("/api/admin/pages: writing", () => {
  it("keeps a draft from the public, publishes it everywhere at once, audited, and deletes it", async () => {
    // Both instances remember the blog once their listeners are up.
    for (const app of [shop.app, second.app]) await callApi(app, "GET", "/api/content/posts");
    await expect.poll(() => second.deps.catalogue.listening() && shop.deps.catalogue.listening()).toBe(true);

    const created = await api("POST", "/admin/pages", POST);
    expect(created.status).toBe(201);
    const draft = created.body as ContentDetail;
    expect(draft).toMatchObject({ kind: "post", slug: POST.slug, published: false, publishedOn: null });
    expect(draft.updatedBy).toBe(owner.email);

    expect((await api("GET", `/content/posts/${POST.slug}`, undefined, null)).status).toBe(404);
    expect((await callApi(second.app, "GET", `/api/content/posts/${POST.slug}`)).status).toBe(404);
    const listed = (await api("GET", "/content/posts", undefined, null)).body.posts as PostSummary[];
    expect(listed.map((post) => post.slug)).not.toContain(POST.slug);
    const sitemap = await (await shop.app.request("/sitemap.xml")).text();
    expect(sitemap).not.toContain(`/blog/${POST.slug}<`);

    const published = await api("PUT", `/admin/pages/${draft.id}`, { ...POST, published: true });
    const savedAt = performance.now();
    expect(published.status).toBe(200);
    expect(published.body.publishedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect
      .poll(async () => (await callApi(second.app, "GET", `/api/content/posts/${POST.slug}`)).status, {
        timeout: 1_000,
        interval: 20,
      })
      .toBe(200);
    console.info(
      `second instance showed the published article after ${(performance.now() - savedAt).toFixed(0)} ms`,
    );
    const shown = (await callApi(second.app, "GET", `/api/content/posts/${POST.slug}`))
      .body as PublishedContent;
    expect(shown.html).toBe(
      '<p>Neem is <strong>bitter</strong> and <a href="/blog">much loved</a>.</p>\n<h2>Steps</h2>\n<ul>\n<li>Boil</li>\n<li>Cool</li>\n</ul>\n',
    );
    const posts = (await callApi(second.app, "GET", "/api/content/posts")).body.posts as PostSummary[];
    expect(posts.map((post) => post.slug)).toContain(POST.slug);
    expect(await (await shop.app.request("/sitemap.xml")).text()).toContain(`/blog/${POST.slug}</loc>`);

    const entries = await pageAudit();
    expect(entries.map((entry) => entry.action)).toEqual(["create_post", "publish_page"]);
    expect(entries[1]).toMatchObject({
      actorId: owner.userId,
      actorEmail: owner.email,
      entityId: `post/${POST.slug}`,
      before: { published: false, publishedOn: null },
      after: { published: true, title: POST.title },
    });

    const gone = await api("DELETE", `/admin/pages/${draft.id}`);
    expect(gone).toEqual({ status: 200, body: { deleted: { id: draft.id, slug: POST.slug } } });
    await expect
      .poll(async () => (await callApi(second.app, "GET", `/api/content/posts/${POST.slug}`)).status, {
        timeout: 1_000,
        interval: 20,
      })
      .toBe(404);
    expect(await (await shop.app.request("/sitemap.xml")).text()).not.toContain(`/blog/${POST.slug}<`);
    expect((await pageAudit()).at(-1)).toMatchObject({ action: "delete_post", after: null });
  });

  it("edits a policy page: the shop shows the new text and the audit keeps what it was", async () => {
    const privacy = (await api("GET", `/admin/pages/${(await itemBySlug("privacy"))?.id}`))
      .body as ContentDetail;
    const body = `${privacy.body}\n\n## Updates\n\nWe last reviewed this policy in November.\n`;
    const saved = await api("PUT", `/admin/pages/${privacy.id}`, {
      slug: "privacy",
      title: "Privacy Policy",
      description: privacy.description,
      author: null,
      body,
      published: true,
      publishedOn: privacy.publishedOn,
    });
    expect(saved.status).toBe(200);
    const shown = (await api("GET", "/content/pages/privacy", undefined, null)).body as PublishedContent;
    expect(shown.html).toContain("<p>We last reviewed this policy in November.</p>");
    expect((await pageAudit()).at(-1)).toMatchObject({
      action: "update_page",
      entityId: "page/privacy",
      before: { body: `${privacy.body.length} characters` },
      after: { body: `${body.trim().length} characters` },
    });
  });
});

describe("an owner's Markdown reaching a shopper", () => {
  const HOSTILE = [
    "<script>alert(1)</script>",
    '<img src="x" onerror="alert(2)">',
    "Text <iframe src=\"https://evil.example\"></iframe> and <b onclick='alert(3)'>bold</b>",
    "[click](javascript:alert(4))",
    "[click](JaVaScRiPt&#58;alert(5))",
    "[click](<java\tscript:alert(6)>)",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==)",
    "![x](javascript:alert(8))",
    '[t](/ok "x\\" onmouseover=\\"alert(9)")',
    "<svg/onload=alert(10)>",
    '<a href="javascript:alert(11)">a</a>',
  ].join("\n\n");

  it("shows raw HTML as text and drops unsafe addresses, in the preview and on the published page", async () => {
    const preview = await api("POST", "/admin/pages/preview", { body: HOSTILE });
    expect(preview.status).toBe(200);
    const created = await api("POST", "/admin/pages", {
      ...POST,
      slug: "hostile-markdown",
      body: HOSTILE,
      published: true,
    });
    expect(created.status).toBe(201);
    const shown = (await api("GET", "/content/posts/hostile-markdown", undefined, null))
      .body as PublishedContent;
    expect(shown.html).toBe(preview.body.html);
    const html = shown.html;
    // No element but those Markdown makes, and no attribute but href, src, alt, title and loading.
    const tags = [...html.matchAll(/<([a-z0-9]+)([^>]*)>/gi)];
    expect(new Set(tags.map((tag) => tag[1]?.toLowerCase()))).toEqual(new Set(["p", "a"]));
    for (const [, , attributes] of tags) {
      const names = [...(attributes ?? "").matchAll(/\s([a-z-]+)="[^"]*"/gi)].map((found) => found[1]);
      expect(names.every((name) => ["href", "title", "src", "alt", "loading"].includes(name ?? ""))).toBe(
        true,
      );
    }
    const addresses = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((found) => found[1]);
    expect(addresses).toEqual(["/ok"]);
    expect(html).toContain("<p>click</p>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="/ok" title="x&quot; onmouseover=&quot;alert(9)">t</a>');
    await api("DELETE", `/admin/pages/${created.body.id}`);
  });

  it("refuses text over the limit and a preview of nothing", async () => {
    const tooLong = await api("POST", "/admin/pages/preview", { body: "a".repeat(100_001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.fields).toEqual({ body: expect.stringContaining("at most") });
    expect((await api("POST", "/admin/pages/preview", { body: "" })).status).toBe(400);
  });
});

describe("/api/content: the public", () => {
  it("answers 404 in the one error shape for an address that is no page", async () => {
    for (const path of [
      "/content/posts/no-such-article",
      "/content/pages/no-such-page",
      "/content/pages/%3Cx%3E",
    ]) {
      const { status, body } = await api("GET", path, undefined, null);
      expect(status, path).toBe(404);
      expect(body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    }
  });
});
