import path from "node:path";
import type { Context, MiddlewareHandler } from "hono";
import { compress } from "hono/compress";

/** Below this, compressing costs more than the bytes it saves (hono's own threshold, cached-json's too). */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Compresses the answers made per request (pages, API JSON) from 1 kB up. Files are compressed once at build
 * (scripts/vite-precompress.ts) and picked by serveStatic, so a path naming a file is left alone.
 *
 * hono's compress skips a small answer only by its Content-Length, which `c.json` does not set, so an 81-byte
 * `{"userId":...,"version":3}` was gzipped (about 100 bytes, and a compressor per request). A JSON answer is
 * whole before it is sent, so its length is measured first; streamed answers (pages, server-sent events) are
 * not JSON and are not held back.
 */
export function compressAnswers(): MiddlewareHandler {
  const compressed = compress({ threshold: COMPRESS_FROM_BYTES });
  return (c, next) =>
    path.extname(c.req.path)
      ? next()
      : compressed(c, async () => {
          await next();
          await measureJson(c);
        });
}

async function measureJson(c: Context) {
  const { headers, body } = c.res;
  if (
    !body ||
    headers.has("Content-Length") ||
    headers.has("Content-Encoding") ||
    !headers.get("Content-Type")?.startsWith("application/json")
  ) {
    return;
  }
  const bytes = await c.res.arrayBuffer();
  c.res = new Response(bytes, c.res);
  c.res.headers.set("Content-Length", String(bytes.byteLength));
}
