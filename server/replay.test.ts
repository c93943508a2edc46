import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callApi, createTestApp } from "../tests/database.ts";
import { createShop } from "./app.ts";
import type { CatalogueCache } from "./catalogue/catalogue-cache.ts";
import { parseEnv } from "./env.ts";
import { createMetrics, observeRequests } from "./observability.ts";
import { createReplay, markReplayable } from "./replay.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A response's headers without those that belong to one request: its id and the time. */
const lasting = (response: Response) =>
  [...response.headers].filter(([name]) => name !== "x-request-id" && name !== "date");

const BODY = new TextEncoder().encode(JSON.stringify({ items: ["badam-mix"] }));

/**
 * A small app built like the shop's: the replay's recorder outermost, request ids and security headers,
 * a catalogue answer and a lasting one (a hashed asset), and a count of what reached the app.
 */
function replayedApp(options: { draining?: boolean; trustedProxies?: string; maxKept?: number } = {}) {
  let generation = 0;
  let listening = true;
  let failOnce = false;
  const catalogue = {
    generation: () => {
      if (failOnce) {
        failOnce = false;
        throw new Error("generation unreadable");
      }
      return generation;
    },
    listening: () => listening,
  } as CatalogueCache;
  const env = parseEnv({
    NODE_ENV: "test",
    BETTER_AUTH_SECRET: "test-secret-that-is-long-enough-for-better-auth",
    ...(options.trustedProxies ? { TRUSTED_PROXIES: options.trustedProxies } : {}),
  });
  const metrics = createMetrics({ processMetrics: false });
  const lifecycle = { draining: options.draining ?? false };
  const replay = createReplay({ catalogue, env, metrics, lifecycle, maxKept: options.maxKept });
  const reached: string[] = [];
  const app = new Hono();
  app.use(replay.record);
  app.use(observeRequests(env, metrics));
  app.use(secureHeaders());
  app.use(async (c, next) => {
    reached.push(c.req.path);
    await next();
  });
  app.get("/api/catalogue", (c) => {
    markReplayable(c, { body: BODY, encoding: undefined, catalogue: true });
    return c.body(BODY, 200, {
      "Content-Type": "application/json",
      ETag: '"v1"',
      "Cache-Control": "no-cache",
    });
  });
  app.get("/assets/app.js", (c) => {
    markReplayable(c, { body: BODY, encoding: undefined, catalogue: false });
    return c.body(BODY, 200, { "Content-Type": "text/javascript" });
  });
  app.get("/api/session", (c) => {
    markReplayable(c, { body: BODY, encoding: undefined, catalogue: true });
    c.header("Set-Cookie", "session=abc");
    return c.body(BODY, 200);
  });
  app.get("/api/gzipped-later", (c) => {
    // A handler that says "plain" while something after it encodes: what was sent is not what it kept.
    markReplayable(c, { body: BODY, encoding: undefined, catalogue: true });
    return c.body(BODY, 200, { "Content-Encoding": "gzip" });
  });
  return {
    listener: replay.listener(getRequestListener(app.fetch)),
    reached,
    metrics,
    lifecycle,
    change: () => {
      generation++;
    },
    setListening: (value: boolean) => {
      listening = value;
    },
    failNextRead: () => {
      failOnce = true;
    },
  };
}

const requestsCounted = async (metrics: ReturnType<typeof createMetrics>) =>
  (await metrics.requests.get()).values.reduce((sum, value) => sum + value.value, 0);

describe("replaying kept answers in front of the app", () => {
  it("answers a second identical GET without the app, with the same headers and bytes and its own id", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    const first = await fetch(`${url}/api/catalogue`);
    const second = await fetch(`${url}/api/catalogue`);
    expect(shop.reached).toEqual(["/api/catalogue"]);
    expect(second.status).toBe(200);
    expect(lasting(second)).toEqual(lasting(first));
    expect(lasting(second)).toContainEqual(["x-frame-options", "SAMEORIGIN"]);
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(new Uint8Array(await first.arrayBuffer()));
    expect(second.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    // Each replay is counted and logged like any answer.
    expect(await requestsCounted(shop.metrics)).toBe(2);
  });

  it("keeps one answer per Accept-Encoding, and leaves conditional requests and HEAD to the app", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    await fetch(`${url}/api/catalogue`, { headers: { "Accept-Encoding": "br" } });
    await fetch(`${url}/api/catalogue`, { headers: { "Accept-Encoding": "gzip" } });
    await fetch(`${url}/api/catalogue`, { headers: { "Accept-Encoding": "br" } });
    expect(shop.reached).toHaveLength(2);
    await fetch(`${url}/api/catalogue`, { headers: { "Accept-Encoding": "br", "If-None-Match": '"v1"' } });
    await fetch(`${url}/api/catalogue`, { method: "HEAD", headers: { "Accept-Encoding": "br" } });
    expect(shop.reached).toHaveLength(4);
  });

  it("forgets catalogue answers when the catalogue changes, and keeps none while changes go unheard", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    await fetch(`${url}/api/catalogue`);
    await fetch(`${url}/assets/app.js`);
    shop.change();
    await fetch(`${url}/api/catalogue`);
    expect(shop.reached).toEqual(["/api/catalogue", "/assets/app.js", "/api/catalogue"]);

    shop.setListening(false);
    shop.change();
    await fetch(`${url}/api/catalogue`);
    await fetch(`${url}/api/catalogue`);
    await fetch(`${url}/assets/app.js`);
    await fetch(`${url}/assets/app.js`);
    // Without the listener every catalogue answer is made afresh; a hashed asset never changes.
    expect(shop.reached.slice(3)).toEqual(["/api/catalogue", "/api/catalogue", "/assets/app.js"]);
  });

  it("lets the oldest kept answer go when full, so one-off addresses cannot keep the others out", async () => {
    const shop = replayedApp({ maxKept: 2 });
    const url = await listen(shop.listener);
    for (const query of ["a", "b", "c", "c", "b", "a"]) await fetch(`${url}/api/catalogue?${query}`);
    // a, b, c made; c and b replayed; a had gone when c came, so it is made again.
    expect(shop.reached).toEqual(["/api/catalogue", "/api/catalogue", "/api/catalogue", "/api/catalogue"]);
  });

  it("never keeps an answer that sets a cookie, or one encoded after its handler", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    for (let round = 0; round < 2; round++) {
      await fetch(`${url}/api/session`);
      await fetch(`${url}/api/gzipped-later`, { headers: { "Accept-Encoding": "identity" } });
    }
    expect(shop.reached).toHaveLength(4);
  });

  it("sends a request to the app when replaying it throws, rather than ending the process", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    await fetch(`${url}/api/catalogue`);
    shop.failNextRead();
    const answer = await fetch(`${url}/api/catalogue`);
    expect(answer.status).toBe(200);
    expect(shop.reached).toHaveLength(2);
  });

  it("sends every request to the app while shutting down, so each answer closes its connection there", async () => {
    const shop = replayedApp();
    const url = await listen(shop.listener);
    await fetch(`${url}/api/catalogue`);
    shop.lifecycle.draining = true;
    await fetch(`${url}/api/catalogue`);
    expect(shop.reached).toHaveLength(2);
  });

  it("keeps a trusted proxy's request id, and makes a new one for anybody else's", async () => {
    const behindProxy = replayedApp({ trustedProxies: "127.0.0.1" });
    const url = await listen(behindProxy.listener);
    await fetch(`${url}/api/catalogue`);
    const proxied = await fetch(`${url}/api/catalogue`, { headers: { "X-Request-Id": "nginx-42" } });
    expect(behindProxy.reached).toHaveLength(1);
    expect(proxied.headers.get("x-request-id")).toBe("nginx-42");

    const direct = replayedApp();
    const directUrl = await listen(direct.listener);
    await fetch(`${directUrl}/api/catalogue`);
    const spoofed = await fetch(`${directUrl}/api/catalogue`, {
      headers: { "X-Request-Id": "chosen-by-me" },
    });
    expect(direct.reached).toHaveLength(1);
    expect(spoofed.headers.get("x-request-id")).not.toBe("chosen-by-me");
  });
});

describe("the shop's catalogue answers over HTTP", () => {
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(async () => {
    await shop?.close();
  });

  it("are replayed with the app's own headers, and a price change reaches the next answer", async () => {
    const url = await listen(createShop(shop.deps).listener());
    const get = () => fetch(`${url}/api/products/badam-mix`, { headers: { "Accept-Encoding": "br" } });
    // The first read starts the listener; answers are kept once it hears changes.
    await get();
    await expect.poll(() => shop.deps.catalogue.listening()).toBe(true);
    const made = await get();
    const replayed = await get();
    expect(replayed.headers.get("content-encoding")).toBe("br");
    expect(lasting(replayed)).toEqual(lasting(made));
    const before = (await replayed.json()) as { pricePaise: number };

    await shop.db.execute(sql`update products set price_paise = price_paise + 2000 where slug = 'badam-mix'`);
    await expect
      .poll(async () => ((await (await get()).json()) as { pricePaise: number }).pricePaise, {
        timeout: 10_000,
      })
      .toBe(before.pricePaise + 2000);
    // In-process callers (the page renderer) see the same catalogue.
    expect((await callApi(shop.app, "GET", "/api/products/badam-mix")).body.pricePaise).toBe(
      before.pricePaise + 2000,
    );
  });
});
