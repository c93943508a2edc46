import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Context, Hono } from "hono";
import type * as EntryServer from "../../web/entry-server.tsx";
import { sendCached, toCachedHtml } from "../catalogue/cached-json.ts";
import type { CatalogueCache } from "../catalogue/catalogue-cache.ts";
import { log, serializeError } from "../log.ts";

export const distServerEntry = path.resolve(import.meta.dirname, "../../dist-server/entry-server.js");

type Renderer = typeof EntryServer;
type RenderedPage = Awaited<ReturnType<Renderer["renderPage"]>>;

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

/** A render that is not kept: a redirect, the shell after a failure, a 404 (any address can ask for one). */
class NotKept {
  constructor(readonly page: RenderedPage) {}
}

/**
 * Public pages (home, products, combos, blog, policies, contact) as complete HTML rendered by the web
 * app's own routes; every other page gets the shell, which the browser renders with the visitor's session.
 * A page is what the catalogue, the combos and the shop's details make it, the same for every visitor,
 * so with `cache` it is rendered once per catalogue version and address, and its bytes and compressed
 * forms served from memory until the catalogue changes on any instance.
 */
export function createPageHandler(app: Hono, indexFile: string, cache?: CatalogueCache) {
  let template: string | undefined;
  const render = async (url: URL): Promise<RenderedPage> => {
    const module = await loadRenderer();
    if (!module) return { kind: "shell" };
    try {
      return await currentApp.run(app, () => module.renderPage(new URL(url.pathname + url.search, url)));
    } catch (error) {
      // The browser can still render it; the failure is ours to see in the log.
      log.error(
        { err: serializeError(error), path: url.pathname },
        "server rendering failed; the app renders it",
      );
      return { kind: "shell" };
    }
  };
  return async (c: Context) => {
    template ??= readFileSync(indexFile, "utf8");
    const page = template;
    const url = new URL(c.req.url);
    let rendered: RenderedPage;
    if (cache) {
      const kept = await cache
        .remember(`page ${url.pathname}${url.search}`, async () => {
          const fresh = await render(url);
          if (fresh.kind === "page" && fresh.status === 200) return toCachedHtml(fillTemplate(page, fresh));
          throw new NotKept(fresh);
        })
        .catch((error: unknown) => {
          if (error instanceof NotKept) return error.page;
          throw error;
        });
      if (!("kind" in kept)) return sendCached(c, kept);
      rendered = kept;
    } else {
      rendered = await render(url);
    }
    if (rendered.kind === "redirect") return rendered.response;
    if (rendered.kind === "shell") {
      c.header("Cache-Control", "no-cache");
      return c.html(page);
    }
    return answer(c, fillTemplate(page, rendered), rendered.status);
  };
}
