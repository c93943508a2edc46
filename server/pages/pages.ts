import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Context, Hono } from "hono";
import type * as EntryServer from "../../web/entry-server.tsx";

export const distServerEntry = path.resolve(import.meta.dirname, "../../dist-server/entry-server.js");

type Renderer = typeof EntryServer;

// The renderer's loaders call the API through one transport for the whole process; each render runs
// with its own app here, so tests that build several apps in one process each reach their own.
const currentApp = new AsyncLocalStorage<Hono>();
let renderer: Promise<Renderer | undefined> | undefined;

function loadRenderer(): Promise<Renderer | undefined> {
  renderer ??= (async () => {
    if (!existsSync(distServerEntry)) return undefined;
    const module = (await import(pathToFileURL(distServerEntry).href)) as Renderer;
    module.setupRendering((apiPath, init) => {
      const app = currentApp.getStore();
      if (!app) throw new Error("An API call from a page render outside renderPage");
      return Promise.resolve(app.request(`/api${apiPath}`, init));
    });
    return module;
  })();
  return renderer;
}

/** The blog articles and fixed pages of the built web app, and when it was built. */
export async function builtContentPages(): Promise<{
  pages: { path: string; date?: string }[];
  builtAt?: Date;
}> {
  const module = await loadRenderer();
  if (!module) return { pages: [] };
  return { pages: module.contentPages(), builtAt: statSync(distServerEntry).mtime };
}

const HEAD_START = /<!-- page-head:[^>]*-->/;
const HEAD_END = "<!-- /page-head -->";
const ROOT = '<div id="root"></div>';

/** index.html with the page's head, the rendered page inside #root, and its loader data after it. */
function fillTemplate(template: string, page: { head: string; body: string; data: string }): string {
  const start = template.search(HEAD_START);
  const end = template.indexOf(HEAD_END);
  if (start < 0 || end < 0 || !template.includes(ROOT)) {
    throw new Error("dist/index.html lacks the page-head markers or the empty #root");
  }
  return `${template.slice(0, start)}${page.head}${template.slice(end + HEAD_END.length)}`.replace(
    ROOT,
    () => `<div id="root">${page.body}</div>${page.data}`,
  );
}

/** A weak tag: the compression middleware may send the same page in another encoding. */
const entityTag = (html: string) => `W/"${createHash("sha1").update(html).digest("base64url")}"`;

function answer(c: Context, html: string, status: number) {
  const tag = entityTag(html);
  // Every visitor gets the same HTML (no cookies were used), so a cache may keep it, checking back each time.
  c.header("Cache-Control", "no-cache");
  c.header("ETag", tag);
  const wanted = c.req.header("If-None-Match");
  if (wanted?.split(",").some((candidate) => candidate.trim() === tag)) return c.body(null, 304);
  return c.html(html, status as 200);
}

/**
 * Public pages (home, products, combos, blog, policies, contact) as complete HTML rendered by the web
 * app's own routes; every other page gets the shell, which the browser renders with the visitor's session.
 */
export function createPageHandler(app: Hono, indexFile: string) {
  let template: string | undefined;
  return async (c: Context) => {
    template ??= readFileSync(indexFile, "utf8");
    const module = await loadRenderer();
    const url = new URL(c.req.url);
    let page: Awaited<ReturnType<Renderer["renderPage"]>> = { kind: "shell" };
    if (module) {
      try {
        page = await currentApp.run(app, () => module.renderPage(new URL(url.pathname + url.search, url)));
      } catch (error) {
        // The browser can still render it; the failure is ours to see in the log.
        console.error(`Server rendering of ${url.pathname} failed:`, error);
      }
    }
    if (page.kind === "redirect") return page.response;
    if (page.kind === "shell") {
      c.header("Cache-Control", "no-cache");
      return c.html(template);
    }
    return answer(c, fillTemplate(template, page), page.status);
  };
}
