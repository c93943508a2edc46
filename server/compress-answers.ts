import path from "node:path";
import type { Context, MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { setAnswerHeader } from "./answer-headers.ts";

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
          varyOnEncoding(c);
        });
}

const VARY_ON_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * The Vary header hono's compress adds to every answer it could compress, whether or not this client takes an
 * encoding, added here first on the same conditions, in place (answer-headers.ts): compress adds it with
 * `c.header`, which makes the whole answer again. Finding it there, compress leaves it.
 */
function varyOnEncoding(c: Context) {
  const { headers, status } = c.res;
  const length = headers.get("Content-Length");
  const type = headers.get("Content-Type");
  const vary = headers.get("Vary");
  if (
    status === 206 ||
    c.req.method === "HEAD" ||
    headers.has("Content-Encoding") ||
    headers.has("Transfer-Encoding") ||
    (length && Number(length) < COMPRESS_FROM_BYTES) ||
    !type ||
    !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
    NO_TRANSFORM.test(headers.get("Cache-Control") ?? "") ||
    vary === "*" ||
    (vary && VARY_ON_ENCODING.test(vary))
  ) {
    return;
  }
  setAnswerHeader(c, "Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}

/**
 * Only a client that names an encoding can be sent one, so only its answers are measured. The headers are
 * read before the body: asking the node adapter's Response for its body turns the string `c.json` gave it
 * into a fetch Response and a web stream, which the adapter then reads back, where it otherwise writes the
 * string as it is.
 */
async function measureJson(c: Context) {
  if (!c.req.header("Accept-Encoding")) return;
  const { headers } = c.res;
  if (
    headers.has("Content-Length") ||
    headers.has("Content-Encoding") ||
    !headers.get("Content-Type")?.startsWith("application/json") ||
    !c.res.body
  ) {
    return;
  }
  const bytes = await c.res.arrayBuffer();
  c.res = new Response(bytes, c.res);
  c.res.headers.set("Content-Length", String(bytes.byteLength));
}
