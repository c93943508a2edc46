import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Context } from "hono";
import { COMPRESS_FROM_BYTES } from "../compress-answers.ts";
import { markReplayable } from "../replay.ts";

/**
 * An answer made once per catalogue version (a JSON body, or a server-rendered page): its bytes, a strong
 * ETag derived from them (the same on every instance, so a proxy or browser revalidates against any of
 * them), and its compressed forms, each made the first time a client asks for it rather than on every request.
 */
type Bytes = Uint8Array<ArrayBuffer>;

export type CachedAnswer = {
  body: Bytes;
  tag: string;
  contentType: string;
  gzip?: Bytes;
  br?: Bytes;
};

function toCached(text: string, contentType: string): CachedAnswer {
  const body = new TextEncoder().encode(text);
  const tag = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return { body, tag, contentType };
}

export const toCachedJson = (value: unknown) => toCached(JSON.stringify(value), "application/json");

export const toCachedHtml = (html: string) => toCached(html, "text/html; charset=UTF-8");

type Encoding = "br" | "gzip";

/** The best encoding the client accepts (q > 0), brotli first. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const wildcard = accepted.get("*") ?? 0;
  for (const encoding of ["br", "gzip"] as const) {
    if ((accepted.get(encoding) ?? wildcard) > 0) return encoding;
  }
  return undefined;
}

/** Whether an If-None-Match header names this answer (weak comparison, as RFC 9110 asks for this header). */
function matches(ifNoneMatch: string, tag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((candidate) => {
    const opaque = candidate.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    // Each encoding has its own tag (tag, tag-br, tag-gz): any of them names the same content.
    return opaque === tag || opaque === `${tag}-br` || opaque === `${tag}-gz`;
  });
}

function compressed(entry: CachedAnswer, encoding: Encoding): Bytes {
  if (encoding === "br") {
    // Quality 5: close to the best size for JSON at a small fraction of quality 11's time.
    entry.br ??= new Uint8Array(
      brotliCompressSync(entry.body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length,
        },
      }),
    );
    return entry.br;
  }
  entry.gzip ??= new Uint8Array(gzipSync(entry.body, { level: 6 }));
  return entry.gzip;
}

/**
 * Answers with a remembered body: 304 when the client already holds it, else the bytes in the best
 * encoding it accepts. Browsers must revalidate (no-cache): stock can run out at any moment.
 */
export function sendCached(c: Context, entry: CachedAnswer): Response {
  const encoding =
    entry.body.length >= COMPRESS_FROM_BYTES ? chooseEncoding(c.req.header("Accept-Encoding")) : undefined;
  const suffix = encoding === "br" ? "-br" : encoding === "gzip" ? "-gz" : "";
  const headers: Record<string, string> = {
    ETag: `"${entry.tag}${suffix}"`,
    "Cache-Control": "no-cache",
    Vary: "Accept-Encoding",
  };
  const ifNoneMatch = c.req.header("If-None-Match");
  if (ifNoneMatch && matches(ifNoneMatch, entry.tag)) return c.body(null, 304, headers);
  headers["Content-Type"] = entry.contentType;
  if (encoding) headers["Content-Encoding"] = encoding;
  const body = encoding ? compressed(entry, encoding) : entry.body;
  markReplayable(c, { body, encoding, catalogue: true });
  return c.body(body, 200, headers);
}
