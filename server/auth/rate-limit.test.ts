import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { createTestApp, setUpTestApp } from "../../tests/database.ts";
import { createApp } from "../app.ts";
import { createDeps } from "../deps.ts";

const LIMITS = {
  AUTH_RATE_LIMIT_SIGN_IN: "3",
  AUTH_RATE_LIMIT_SIGN_UP: "2",
  AUTH_RATE_LIMIT_EMAIL: "2",
};

const shop = setUpTestApp(LIMITS);

const ORIGIN = "http://localhost:3000";
/** In-process requests have no socket, so X-Forwarded-For stands for the client's address here. */
const postFrom = (ip: string, path: string, body: unknown, app = shop.app) =>
  app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN, "X-Forwarded-For": ip },
    body: JSON.stringify(body),
  });
const wrongPassword = { email: "someone@example.in", password: "not-the-password" };

describe("rate limits on sign-in, sign-up, e-mail links and resets", () => {
  it("answers 429 with a retry time once an address has used its sign-in attempts", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await postFrom("203.0.113.1", "/api/auth/sign-in/email", wrongPassword)).status).toBe(401);
    }
    const limited = await postFrom("203.0.113.1", "/api/auth/sign-in/email", wrongPassword);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("x-retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("x-retry-after"))).toBeLessThanOrEqual(60);

    // Even the right password waits: the limit is on attempts, not failures.
    await signUpViaApp(shop.app, "right@example.in");
    const right = await postFrom("203.0.113.1", "/api/auth/sign-in/email", {
      email: "right@example.in",
      password: "neem-and-tulsi-2026",
    });
    expect(right.status).toBe(429);
    // Another address is not affected.
    expect((await postFrom("203.0.113.2", "/api/auth/sign-in/email", wrongPassword)).status).toBe(401);
  });

  it("lets exactly the allowed number through when attempts arrive at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => postFrom("203.0.113.3", "/api/auth/sign-in/email", wrongPassword)),
    );
    const statuses = results.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it("limits sign-ups, e-mail links and reset requests", async () => {
    const signUp = (n: number) =>
      postFrom("203.0.113.4", "/api/auth/sign-up/email", {
        name: "N",
        email: `new${n}@example.in`,
        password: "long-enough-password",
      });
    expect((await signUp(1)).status).toBe(200);
    expect((await signUp(2)).status).toBe(200);
    expect((await signUp(3)).status).toBe(429);

    const link = () => postFrom("203.0.113.5", "/api/auth/sign-in/magic-link", { email: "link@example.in" });
    expect((await link()).status).toBe(200);
    expect((await link()).status).toBe(200);
    expect((await link()).status).toBe(429);

    const reset = () =>
      postFrom("203.0.113.6", "/api/auth/request-password-reset", {
        email: "reset@example.in",
        redirectTo: "/",
      });
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(429);
  });

  it("holds across several app instances, because the counts are in the database", async () => {
    const second = createApp(createDeps({ db: shop.db, env: shop.env }));
    expect((await postFrom("203.0.113.7", "/api/auth/sign-in/email", wrongPassword)).status).toBe(401);
    expect((await postFrom("203.0.113.7", "/api/auth/sign-in/email", wrongPassword, second)).status).toBe(
      401,
    );
    expect((await postFrom("203.0.113.7", "/api/auth/sign-in/email", wrongPassword)).status).toBe(401);
    expect((await postFrom("203.0.113.7", "/api/auth/sign-in/email", wrongPassword, second)).status).toBe(
      429,
    );
  });
});

describe("the client address behind the limits", () => {
  async function listen(overrides: Record<string, string>) {
    const served = await createTestApp({ ...LIMITS, ...overrides });
    const server = serve({ fetch: served.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const signIn = (forwardedFor?: string) =>
      fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Origin: ORIGIN,
          ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
        },
        body: JSON.stringify(wrongPassword),
      });
    return {
      signIn,
      async close() {
        await new Promise((resolve) => {
          server.close(resolve);
          (server as import("node:http").Server).closeAllConnections();
        });
        await served.close();
      },
    };
  }

  it("is the connecting address when the shop faces the internet: a made-up X-Forwarded-For changes nothing", async () => {
    const shopOnline = await listen({});
    try {
      const statuses = [];
      for (const fake of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"]) {
        statuses.push((await shopOnline.signIn(fake)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await shopOnline.close();
    }
  });

  it("is the shopper's address from X-Forwarded-For when the request comes through a trusted proxy", async () => {
    const behindProxy = await listen({ TRUSTED_PROXIES: "127.0.0.1" });
    try {
      const first = [];
      for (let attempt = 0; attempt < 4; attempt++)
        first.push((await behindProxy.signIn("198.51.100.9")).status);
      expect(first).toEqual([401, 401, 401, 429]);
      // Another shopper behind the same proxy has their own allowance.
      expect((await behindProxy.signIn("198.51.100.10")).status).toBe(401);
      // A shopper who adds a made-up address in front still ends up in their own bucket.
      expect((await behindProxy.signIn("10.9.9.9, 198.51.100.9")).status).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });
});
