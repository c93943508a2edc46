import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { describe, expect, it } from "vitest";
import { setUpTestApp } from "../tests/database.ts";
import { setAnswerHeader } from "./answer-headers.ts";
import { COMPRESS_FROM_BYTES, compressAnswers } from "./compress-answers.ts";

const GZIP = { "Accept-Encoding": "gzip, deflate, br" };
const small = { userId: null, version: 0 };
const large = {
  lines: Array.from({ length: 100 }, (_, i) => ({ id: `line-${i}`, name: "Neem and tulsi face wash" })),
};

function appWith() {
  const app = new Hono();
  app.use(compressAnswers());
  app.get("/small", (c) => c.json(small));
  app.get("/large", (c) => c.json(large));
  app.get("/page", (c) => c.html(`<!doctype html><p>${"kesar ".repeat(400)}</p>`));
  app.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ event: "cart", data: JSON.stringify(small) });
    }),
  );
  return app;
}

describe("answers compressed per request", () => {
  it("sends a JSON answer under 1 kB as it is, with its length", async () => {
    const response = await appWith().request("/small", { headers: GZIP });
    expect(response.headers.get("content-encoding")).toBeNull();
    const text = JSON.stringify(small);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(await response.text()).toBe(text);
  });

  it("still gzips a large JSON answer, and a page, for a client that takes gzip", async () => {
    const app = appWith();
    const json = await app.request("/large", { headers: GZIP });
    expect(JSON.stringify(large).length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    expect(json.headers.get("content-encoding")).toBe("gzip");
    expect(json.headers.get("vary")).toContain("Accept-Encoding");
    expect(JSON.parse(gunzipSync(Buffer.from(await json.arrayBuffer())).toString())).toEqual(large);
    const plain = await app.request("/large");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.json()).toEqual(large);
    const page = await app.request("/page", { headers: GZIP });
    expect(page.headers.get("content-encoding")).toBe("gzip");
  });

  it("says it varies by Accept-Encoding once, for a client that takes no encoding too", async () => {
    const app = appWith();
    app.get("/varies", (c) => {
      c.header("Vary", "Cookie");
      return c.json(large);
    });
    for (const headers of [{}, GZIP]) {
      expect((await app.request("/large", { headers })).headers.get("vary")).toBe("Accept-Encoding");
      expect((await app.request("/varies", { headers })).headers.get("vary")).toBe("Cookie, Accept-Encoding");
    }
    // A small answer is never compressed, so it does not vary by encoding, as hono's compress has it.
    expect((await app.request("/small", { headers: GZIP })).headers.get("vary")).toBeNull();
  });

  it("sets a header on an answer whose headers cannot be changed in place, by making it again", async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      setAnswerHeader(c, "Cache-Control", "no-store");
    });
    app.get("/moved", () => Response.redirect("http://localhost/elsewhere", 302));
    app.get("/made", (c) => c.json(small));
    const moved = await app.request("/moved");
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("http://localhost/elsewhere");
    expect(moved.headers.get("cache-control")).toBe("no-store");
    const made = await app.request("/made");
    expect(made.headers.get("cache-control")).toBe("no-store");
    expect(await made.json()).toEqual(small);
  });

  it("does not hold back a stream of events", async () => {
    const response = await appWith().request("/events", { headers: GZIP });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("content-length")).toBeNull();
    expect(await response.text()).toContain("event: cart");
  });
});

describe("the shop's small answers", () => {
  const shop = setUpTestApp();

  it("are not compressed: the cart version, the session, an error", async () => {
    for (const path of ["/api/cart/version", "/api/auth/get-session", "/api/products/no-such-product"]) {
      const response = await shop.app.request(path, { headers: GZIP });
      expect(response.headers.get("content-encoding"), path).toBeNull();
      const body = await response.text();
      expect(body.length, path).toBeLessThan(COMPRESS_FROM_BYTES);
      expect(() => JSON.parse(body), path).not.toThrow();
    }
  });
});
