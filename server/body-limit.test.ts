import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, createTestApp, TEST_ORIGIN } from "../tests/database.ts";
import { type Shop, startShop } from "../tests/fixtures.ts";

const MB = 1024 * 1024;

/** The server's resident memory, read from the kernel (Linux). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kilobytes * 1024;
}

/**
 * Streams `size` bytes of a JSON-looking body from one reused chunk, so the test itself holds almost nothing;
 * with `chunked` the size is never announced and the server only learns it by reading. Resolves with the
 * status the server answered, or "reset" when it cut the connection without one.
 */
function sendHugeBody(url: string, size: number, chunked: boolean): Promise<number | "reset"> {
  const target = new URL("/api/cart/quote", url);
  const chunk = Buffer.alloc(64 * 1024, " ");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: number | "reset") => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = http.request(target, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: url,
        ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(size) }),
      },
    });
    request.on("response", (response) => {
      response.resume();
      settle(response.statusCode ?? 0);
    });
    request.on("error", () => settle("reset"));
    let sent = 0;
    const pump = () => {
      while (sent < size && !settled) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!request.write(piece)) {
          request.once("drain", pump);
          return;
        }
      }
      request.end();
    };
    request.write("{");
    pump();
  });
}

describe("one body limit for the whole API, on a started server", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  }, 60_000);
  afterAll(() => shop?.stop());

  it("refuses twenty 50 MB bodies at once while reading them, and its memory stays flat", async () => {
    // Warm up the route once so its code and the connection pool are loaded before the baseline.
    await sendHugeBody(shop.url, 1000, false);
    const before = residentBytes(shop.pid);
    let peak = before;
    const watch = setInterval(() => {
      peak = Math.max(peak, residentBytes(shop.pid));
    }, 20);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => sendHugeBody(shop.url, 50 * MB, index % 2 === 0)),
    );
    clearInterval(watch);
    peak = Math.max(peak, residentBytes(shop.pid));
    const growth = peak - before;
    console.log(
      `[body-limit] RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most under 20 x 50 MB (grew ${Math.round(growth / MB)} MB); answers: ${answers.join(" ")}`,
    );
    // Each one is answered 413 (a client still sending when the connection is closed may see only the reset).
    expect(answers.filter((answer) => answer === 413).length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer === 413 || answer === "reset")).toBe(true);
    expect(growth).toBeLessThan(100 * MB);
    // Still serving.
    expect((await fetch(`${shop.url}/api/health`)).status).toBe(200);
  }, 120_000);
});

describe("the body limit in the app", () => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    app = await createTestApp({ API_BODY_LIMIT_BYTES: String(64 * 1024) });
  });
  afterAll(() => app.close());

  it("answers a 10 MB body with 413 in the error shape, not 400", async () => {
    const big = await createTestApp();
    try {
      const response = await big.app.request("/api/cart/quote", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN },
        body: `{"items":[],"discountCode":"${"x".repeat(10 * MB)}"}`,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: { code: "payload_too_large", message: expect.stringContaining("1 MB") },
      });
    } finally {
      await big.close();
    }
  });

  it("takes its size from API_BODY_LIMIT_BYTES, signed out and on every API path", async () => {
    const body = { items: [], discountCode: "x".repeat(70 * 1024) };
    for (const path of ["/api/cart/quote", "/api/auth/sign-in/email", "/api/addresses", "/api/nope"]) {
      const { status, body: answer } = await callApi(app.app, "POST", path, { body });
      expect(status, path).toBe(413);
      expect(answer.error.code).toBe("payload_too_large");
    }
    const small = await callApi(app.app, "POST", "/api/cart/quote", { body: { items: [] } });
    expect(small.status).toBe(200);
  });

  it("gives the Razorpay webhook a limit of its own", async () => {
    const response = await app.app.request("/api/payments/razorpay/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ event: "payment.captured", padding: "x".repeat(100 * 1024) }),
    });
    // Over the API's 64 kB here, under the webhook's own 256 kB: the signature check answers, not the limit.
    expect(response.status).not.toBe(413);
  });
});
