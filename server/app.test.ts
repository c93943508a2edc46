import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createTestApp, jsonRequest, setUpTestApp } from "../tests/database.ts";
import { serveWebApp } from "./app.ts";
import { handleError } from "./errors.ts";

const shop = setUpTestApp();

describe("the app shell", () => {
  it("reports health and readiness", async () => {
    expect(await (await shop.app.request("/api/health")).json()).toEqual({ status: "ok" });
    const ready = await shop.app.request("/api/ready");
    expect(ready.status).toBe(200);
  });

  it("answers unknown API paths with a JSON 404, never the HTML page", async () => {
    for (const path of ["/api/nope", "/api/products/face-glow-oil/extra", "/api"]) {
      const response = await shop.app.request(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect((await response.json()).error.code).toBe("not_found");
    }
    const post = await shop.app.request("/api/products", jsonRequest({ method: "POST", body: {} }));
    expect(post.status).toBe(404);
  });

  it("sends security headers on every response", async () => {
    const response = await shop.app.request("/api/health");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("has one framing policy: no one may frame the shop, in the old header and the new", async () => {
    const response = await shop.app.request("/api/health");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("never serves a source map, even one left in the built folder", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "shop-dist-"));
    try {
      await mkdir(path.join(root, "assets"));
      await writeFile(path.join(root, "assets", "index-abc123.js"), "console.log(1);");
      await writeFile(path.join(root, "assets", "index-abc123.js.map"), '{"sources":["secret.ts"]}');
      const web = new Hono();
      serveWebApp(web, root);
      web.onError(handleError);
      expect((await web.request("/assets/index-abc123.js")).status).toBe(200);
      const map = await web.request("/assets/index-abc123.js.map");
      expect(map.status).toBe(404);
      expect(await map.text()).not.toContain("secret.ts");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("treats a missing file as a 404 and a page path as the web app", async () => {
    expect((await shop.app.request("/assets/missing-abc123.js")).status).toBe(404);
    const page = await shop.app.request("/some/page");
    expect([200, 503]).toContain(page.status); // 503 only when the web app was never built
  });

  it("answers 503 on /api/ready when the database is gone", async () => {
    const broken = await createTestApp();
    await broken.close();
    const response = await broken.app.request("/api/ready");
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("database_unavailable");
  });
});

describe("API caching", () => {
  it("marks API answers no-store, including found ones and errors", async () => {
    for (const path of ["/api/health", "/api/nope", "/api/products/no-such-thing", "/api/cart"]) {
      expect((await shop.app.request(path)).headers.get("cache-control")).toBe("no-store");
    }
  });

  it("lets the catalogue's answers be kept but revalidated by ETag every time (stock changes)", async () => {
    for (const path of ["/api/products", "/api/products/face-glow-oil", "/api/combos"]) {
      const response = await shop.app.request(path);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("etag")).toBeTruthy();
    }
  });
});
