import { eq } from "drizzle-orm";
import { Hono } from "hono";
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
 * /robots.txt and /sitemap.xml. The sitemap reads the catalogue on each request, so a product added,
 * retired or repriced shows at once; `contentPages` lists the web app's own pages (blog, policies) with
 * `contentDate` as the lastmod of those without a date of their own (when the app was built).
 */
export function crawlFileRoutes(
  { db, env }: Deps,
  content: () => Promise<{ pages: { path: string; date?: string }[]; builtAt?: Date }>,
) {
  const publicUrl = env.PUBLIC_URL.replace(/\/+$/, "");
  return new Hono()
    .get("/robots.txt", (c) => {
      const lines = ["User-agent: *", ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`)];
      lines.push("", `Sitemap: ${publicUrl}/sitemap.xml`, "");
      c.header("Cache-Control", "public, max-age=3600");
      return c.text(lines.join("\n"));
    })
    .get("/sitemap.xml", async (c) => {
      let catalogue: SitemapEntry[];
      try {
        catalogue = await catalogueEntries(db);
      } catch {
        throw httpError(503, "database_unavailable", "The sitemap cannot be made now. Try again shortly.");
      }
      const { pages, builtAt } = await content();
      const own = pages.map((page) => ({
        path: page.path,
        lastmod: page.date ?? (builtAt ? day(builtAt) : undefined),
      }));
      c.header("Cache-Control", "no-cache");
      c.header("Content-Type", "application/xml; charset=utf-8");
      return c.body(renderSitemap(publicUrl, [...catalogue, ...own]));
    });
}
