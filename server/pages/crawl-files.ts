import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { listPublishedPaths } from "../content/content.data.ts";
import type { Db } from "../db/client.ts";
import { combos, products } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";

/** Pages a search engine should never list: personal, transactional or staff-only. */
export const DISALLOWED_PATHS = [
  "/cart",
  "/checkout",
  "/orders",
  // A guest's order page is reached by its link alone (the token in it): never a page to list.
  "/guest-order/",
  "/settings",
  "/questions",
  "/admin",
  "/api/",
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
];

export type SitemapEntry = { path: string; lastmod?: string };

const day = (date: Date) => date.toISOString().slice(0, 10);

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Products and combos on sale now, each with when its row (price, stock, text) last changed. */
async function catalogueEntries(db: Db): Promise<SitemapEntry[]> {
  const [productRows, comboRows] = await Promise.all([
    db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .where(eq(products.active, true))
      .orderBy(products.slug),
    db
      .select({ id: combos.id, updatedAt: combos.updatedAt })
      .from(combos)
      .where(eq(combos.active, true))
      .orderBy(combos.id),
  ]);
  const newest = [...productRows, ...comboRows].reduce(
    (latest, row) => (row.updatedAt > latest ? row.updatedAt : latest),
    new Date(0),
  );
  return [
    { path: "/", lastmod: day(newest) },
    ...productRows.map((row) => ({ path: `/product/${row.slug}`, lastmod: day(row.updatedAt) })),
    ...comboRows.map((row) => ({ path: `/combo/${row.id}`, lastmod: day(row.updatedAt) })),
  ];
}

export function renderSitemap(publicUrl: string, entries: SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `  <url><loc>${escapeXml(`${publicUrl}${entry.path}`)}</loc>${
        entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ""
      }</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/**
 * /robots.txt and /sitemap.xml. The sitemap reads the catalogue and the published pages and articles on
 * each request, so a product added, retired or repriced, or an article published or taken down, shows at once.
 */
export function crawlFileRoutes({ db, env }: Deps) {
  const publicUrl = env.PUBLIC_URL.replace(/\/+$/, "");
  return new Hono()
    .get("/robots.txt", (c) => {
      const lines = ["User-agent: *", ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`)];
      lines.push("", `Sitemap: ${publicUrl}/sitemap.xml`, "");
      c.header("Cache-Control", "public, max-age=3600");
      return c.text(lines.join("\n"));
    })
    .get("/sitemap.xml", async (c) => {
      let entries: SitemapEntry[];
      try {
        const [catalogue, content] = await Promise.all([catalogueEntries(db), listPublishedPaths(db)]);
        entries = [...catalogue, ...content];
      } catch {
        throw httpError(503, "database_unavailable", "The sitemap cannot be made now. Try again shortly.");
      }
      c.header("Cache-Control", "no-cache");
      c.header("Content-Type", "application/xml; charset=utf-8");
      return c.body(renderSitemap(publicUrl, entries));
    });
}
