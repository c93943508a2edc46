import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Context, Next } from "hono";
import { getMimeType } from "hono/utils/mime";
import { chooseEncoding } from "./catalogue/cached-json.ts";
import { markReplayable } from "./replay.ts";

type Bytes = Uint8Array<ArrayBuffer>;
type Asset = { type: string; plain: Bytes; br?: Bytes; gzip?: Bytes };

/** Files bigger than this (none today) are left to serveStatic's streaming. */
const MAX_BYTES = 2_000_000;
const NAME = /^\/assets\/[\w.-]+$/;

const read = (file: string): Bytes | undefined =>
  existsSync(file) ? new Uint8Array(readFileSync(file)) : undefined;

/**
 * Hashed build files (/assets/name-hash.js) never change under their name, so each is read from disk once,
 * with the .br and .gz made at build beside it, and answered from memory after that: no stat, open and
 * read per request. Anything else, or a name not on disk, goes on to serveStatic.
 */
export function hashedAssets(assetsRoot: string) {
  const known = new Map<string, Asset>();
  const load = (name: string): Asset | undefined => {
    const file = path.join(assetsRoot, name);
    if (!existsSync(file) || statSync(file).size > MAX_BYTES) return undefined;
    const plain = read(file);
    if (!plain) return undefined;
    return {
      type: getMimeType(file) ?? "application/octet-stream",
      plain,
      br: read(`${file}.br`),
      gzip: read(`${file}.gz`),
    };
  };
  return async (c: Context, next: Next) => {
    const requested = c.req.path;
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || !NAME.test(requested)) return next();
    const name = requested.slice("/assets/".length);
    let asset = known.get(name);
    if (!asset) {
      asset = load(name);
      if (!asset) return next();
      known.set(name, asset);
    }
    const encoding = asset.br || asset.gzip ? chooseEncoding(c.req.header("Accept-Encoding")) : undefined;
    const body = (encoding === "br" ? asset.br : encoding === "gzip" ? asset.gzip : undefined) ?? asset.plain;
    const headers: Record<string, string> = {
      "Content-Type": asset.type,
      "Cache-Control": "public, max-age=31536000, immutable",
    };
    if (asset.br || asset.gzip) headers.Vary = "Accept-Encoding";
    const contentEncoding = body === asset.plain ? undefined : encoding === "br" ? "br" : "gzip";
    if (contentEncoding) headers["Content-Encoding"] = contentEncoding;
    markReplayable(c, { body, encoding: contentEncoding, catalogue: false });
    return c.body(body, 200, headers);
  };
}
