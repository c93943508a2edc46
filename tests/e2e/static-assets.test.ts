import { readFileSync } from "node:fs";
import { get } from "node:http";
import path from "node:path";
import { describe, expect } from "vitest";
import { it } from "../shop-test.ts";

const dist = path.resolve(import.meta.dirname, "../../dist");

/** The raw answer, undecoded (fetch would decompress it and hide what was sent). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on("error", reject);
  });
}

// Only reads the built files the shop serves: the worker's shared shop.
describe("static files compressed at build", () => {
  it("sends the brotli or gzip file written beside a hashed asset, as the client accepts, cached for a year", async ({
    shop,
  }) => {
    const html = (await rawGet(`${shop.url}/`)).body.toString();
    const script = html.match(/data-entry="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const onDisk = path.join(dist, script ?? "");
    for (const [accept, encoding, file] of [
      ["gzip, deflate, br, zstd", "br", `${onDisk}.br`],
      ["gzip, deflate", "gzip", `${onDisk}.gz`],
      ["identity", undefined, onDisk],
    ] as const) {
      const response = await rawGet(`${shop.url}${script}`, { "Accept-Encoding": accept });
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBe(encoding);
      expect(response.headers["content-type"]).toContain("javascript");
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      // The very bytes of the file made at build: nothing was compressed for this request.
      expect(response.body.equals(readFileSync(file))).toBe(true);
      expect(response.headers["content-length"]).toBe(String(response.body.length));
      if (encoding) expect(response.headers.vary).toContain("Accept-Encoding");
    }
  });

  it("sends a stylesheet precompressed too", async ({ shop }) => {
    const html = (await rawGet(`${shop.url}/`)).body.toString();
    const stylesheet = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
    expect(stylesheet).toBeDefined();
    const response = await rawGet(`${shop.url}${stylesheet}`, { "Accept-Encoding": "br" });
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.body.equals(readFileSync(path.join(dist, `${stylesheet}.br`)))).toBe(true);
  });
});
