import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../tests/accounts.ts";
import { createTestApp, jsonRequest } from "../tests/database.ts";

const TOKEN = "metrics-token-for-the-tests";

describe("request ids and /metrics", () => {
  let withToken: Awaited<ReturnType<typeof createTestApp>>;
  let withoutToken: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    withToken = await createTestApp({ METRICS_TOKEN: TOKEN, TRUSTED_PROXIES: "10.0.0.2" });
    withoutToken = await createTestApp();
  });
  afterAll(async () => {
    await withToken?.close();
    await withoutToken?.close();
  });

  it("returns a trusted proxy's X-Request-Id, and makes one otherwise", async () => {
    const proxied = await withToken.app.request(
      "/api/health",
      jsonRequest({ headers: { "X-Request-Id": "abc-123" } }),
    );
    expect(proxied.headers.get("x-request-id")).toBe("abc-123");
    const direct = await withoutToken.app.request(
      "/api/health",
      jsonRequest({ headers: { "X-Request-Id": "chosen-by-the-client" } }),
    );
    expect(direct.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const injected = await withToken.app.request(
      "/api/health",
      jsonRequest({ headers: { "X-Request-Id": "bad id with spaces and {braces}" } }),
    );
    expect(injected.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives Better Auth's own answers an id too: the session, signed out and signed in", async () => {
    const signedOut = await withoutToken.app.request("/api/auth/get-session");
    expect(signedOut.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const account = await signUpViaApp(withoutToken.app, "request-id@example.in");
    const signedIn = await withoutToken.app.request("/api/auth/get-session", {
      headers: { Cookie: account.cookie },
    });
    expect(((await signedIn.json()) as { user: { id: string } }).user.id).toBe(account.userId);
    expect(signedIn.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const proxied = await withToken.app.request(
      "/api/auth/get-session",
      jsonRequest({ headers: { "X-Request-Id": "abc-456" } }),
    );
    expect(proxied.headers.get("x-request-id")).toBe("abc-456");
  });

  it("serves Prometheus metrics by route pattern behind the token, and nothing without one configured", async () => {
    await withToken.app.request("/api/products/no-such-product");
    const refused = await withToken.app.request("/metrics");
    expect(refused.status).toBe(401);
    const metrics = await withToken.app.request(
      "/metrics",
      jsonRequest({ headers: { Authorization: `Bearer ${TOKEN}` } }),
    );
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain(
      'shop_http_requests_total{method="GET",route="/api/products/:slug",status="404"} 1',
    );
    expect(text).toContain("shop_db_pool_waiting");
    expect(text).toContain('shop_jobs{status="failed"} 0');
    expect(text).toContain('shop_jobs{status="queued"}');
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).not.toContain("no-such-product");

    const absent = await withoutToken.app.request("/metrics");
    expect(absent.status).toBe(404);
    expect(((await absent.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
