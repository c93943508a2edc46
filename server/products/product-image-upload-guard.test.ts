import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp, TEST_ORIGIN } from "../../tests/database.ts";
import { type Shop, startShop } from "../../tests/fixtures.ts";

const MB = 1024 * 1024;
const UPLOAD_PATH = "/api/admin/product-images";

/** The server's resident memory, read from the kernel (Linux). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) * 1024;
}

type Sent = { status: number | "reset"; finishedSending: boolean };

/**
 * Posts a photo-sized body to the upload, streamed from one reused chunk so the test holds almost nothing.
 * With `stallAfterFirstChunk` it writes the headers and 64 kB, then waits for the answer without sending
 * more: a server that reads the body before deciding never answers. Resolves with the status (or "reset"
 * when the connection was cut without one) and whether the client had finished sending when it came.
 */
function sendUpload(
  url: string,
  size: number,
  options: { chunked: boolean; stallAfterFirstChunk?: boolean; cookie?: string },
): Promise<Sent> {
  const chunk = Buffer.alloc(64 * 1024, "A");
  let finishedSending = false;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: number | "reset") => {
      if (settled) return;
      settled = true;
      resolve({ status, finishedSending });
      request.destroy();
    };
    const request = http.request(new URL(UPLOAD_PATH, url), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: url,
        ...(options.cookie ? { Cookie: options.cookie } : {}),
        ...(options.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(size) }),
      },
    });
    request.on("response", (response) => {
      response.resume();
      settle(response.statusCode ?? 0);
    });
    request.on("error", () => settle("reset"));
    request.write('{"image":"');
    let sent = 0;
    const pump = () => {
      while (sent < size && !settled) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        const flushed = request.write(piece);
        // Stalling means never writing again, even when the socket drains: a busy server may take its
        // time to answer, and the client must not have sent the rest meanwhile.
        if (options.stallAfterFirstChunk) return;
        if (!flushed) {
          request.once("drain", pump);
          return;
        }
      }
      if (settled) return;
      request.end('"}', () => {
        finishedSending = true;
      });
    };
    pump();
  });
}

describe("the photo upload decides who is asking before it reads the body, on a started server", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  }, 60_000);
  afterAll(() => shop?.stop());

  it("answers an anonymous chunked 13 MB upload 401 after its first chunk, before the rest is sent", async () => {
    const answer = await sendUpload(shop.url, 13 * MB, { chunked: true, stallAfterFirstChunk: true });
    expect(answer).toEqual({ status: 401, finishedSending: false });
  }, 30_000);

  it("answers an anonymous 13 MB upload announced by Content-Length 401 before the rest is sent", async () => {
    // 13 MB is under the photo limit, so only the sign-in check can refuse it this early.
    const answer = await sendUpload(shop.url, 13 * MB, { chunked: false, stallAfterFirstChunk: true });
    expect(answer).toEqual({ status: 401, finishedSending: false });
  }, 30_000);

  it("stays flat in memory under 100 parallel anonymous chunked 13 MB uploads", async () => {
    await sendUpload(shop.url, 1000, { chunked: true });
    const before = residentBytes(shop.pid);
    let peak = before;
    const watch = setInterval(() => {
      peak = Math.max(peak, residentBytes(shop.pid));
    }, 20);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => sendUpload(shop.url, 13 * MB, { chunked: true })),
    );
    clearInterval(watch);
    peak = Math.max(peak, residentBytes(shop.pid));
    console.log(
      `[upload-guard] RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most under 100 x 13 MB anonymous uploads (grew ${Math.round((peak - before) / MB)} MB)`,
    );
    expect(answers.every(({ status }) => status === 401 || status === "reset")).toBe(true);
    // Not a timing: the resident memory the bodies cost. Reading them cost about a gigabyte.
    expect(peak - before).toBeLessThan(150 * MB);
    expect((await fetch(`${shop.url}/api/health`)).status).toBe(200);
  }, 180_000);
});

describe("the photo upload refuses customers and staff without reading the body", () => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  let customer: TestAccount;
  let staff: TestAccount;
  beforeAll(async () => {
    app = await createTestApp();
    customer = await signUpViaApp(app.app, "upload-guard-customer@example.in");
    staff = await signUpViaApp(app.app, "upload-guard-staff@example.in");
    await makeAdmin(app, staff, "staff");
  });
  afterAll(() => app.close());

  /** A body that sends one chunk and never ends: only an answer that does not read it can come back. */
  const endlessBody = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"image":"AAAA'));
      },
    });

  for (const who of ["customer", "staff"] as const) {
    it(`answers a ${who}'s endless upload 403 in the error shape`, async () => {
      const account = who === "customer" ? customer : staff;
      const response = await app.app.request(UPLOAD_PATH, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Transfer-Encoding": "chunked",
          Origin: TEST_ORIGIN,
          Cookie: account.cookie,
        },
        body: endlessBody(),
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    }, 10_000);
  }
});
