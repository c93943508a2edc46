import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole, TEST_PASSWORD, type TestAccount } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp, TEST_ORIGIN } from "../../tests/database.ts";
import { productImageFiles } from "../db/schema.ts";
import { IMAGE_QUEUE_WAITING, processInTurn } from "./product-images.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let shopper: TestAccount;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "image-queue-owner@example.in", "owner");
  shopper = await signUpViaApp(shop.app, "image-queue-shopper@example.in");
});

/** A PNG of one colour: a few kilobytes on the wire, every pixel of it to decode. */
const flatPng = (width: number, height: number, seed: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: 80, b: 40 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();

const upload = (bytes: Buffer) =>
  callApi(shop.app, "POST", "/api/admin/product-images", {
    body: { image: bytes.toString("base64") },
    as: owner,
  });

/** A password sign-in, timed: Better Auth's scrypt runs on libuv's thread pool, which sharp shares. */
async function timedSignIn(): Promise<number> {
  const started = performance.now();
  const response = await shop.app.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN },
    body: JSON.stringify({ email: shopper.email, password: TEST_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe("photo processing beside sign-in", () => {
  it("refuses a 10,000 x 10,000 px photo before decoding it, with a 413 naming the image", async () => {
    const { status, body } = await upload(await flatPng(10_000, 10_000, 1));
    expect(status).toBe(413);
    expect(body).toEqual({
      error: {
        code: "payload_too_large",
        message: expect.stringContaining("pixels"),
        fields: { image: expect.any(String) },
      },
    });
  }, 60_000);

  it("processes one photo at a time and refuses more than a few waiting with 429 and Retry-After", async () => {
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const blocked = () =>
      processInTurn(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      });
    const held = Array.from({ length: 1 + IMAGE_QUEUE_WAITING }, blocked);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The queue is full: an upload now is turned away at once, in the error shape.
    const response = await shop.app.request(
      "/api/admin/product-images",
      jsonRequest({
        method: "POST",
        body: { image: (await flatPng(40, 40, 3)).toString("base64") },
        cookie: owner.cookie,
      }),
    );
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ error: { code: "images_busy", message: expect.any(String) } });
    while (releases.length || running) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(held);
    expect(most).toBe(1);
    // Free again.
    expect((await upload(await flatPng(40, 40, 4))).status).toBe(201);
  });

  /**
   * An interlaced PNG with a gradient: under 10 MB, yet decoded whole for every rendition (no shrink on
   * load), seconds of CPU each at these sizes. Made once and kept in the temporary folder (about 12 s).
   */
  async function heavyPng(side: number): Promise<Buffer> {
    const file = path.join(tmpdir(), `shop-heavy-${side}.png`);
    if (existsSync(file)) return readFileSync(file);
    const gradient = `<svg width="${side}" height="${side}"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#048"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
    const bytes = await sharp({ create: { width: side, height: side, channels: 3, background: "#c85" } })
      .composite([{ input: Buffer.from(gradient) }])
      .png({ progressive: true, compressionLevel: 9 })
      .toBuffer();
    writeFileSync(file, bytes);
    return bytes;
  }

  // A measurement, not a check: minutes of CPU on a shared machine. MEASURE_IMAGE_UPLOADS=1 to run it.
  it.runIf(process.env.MEASURE_IMAGE_UPLOADS)(
    "measures a password sign-in during four large uploads at once (figures logged, not asserted)",
    async () => {
      const alone = await timedSignIn();
      for (const side of [10_000, 7_000]) {
        const photo = await heavyPng(side);
        const started = performance.now();
        const uploads = Promise.all(Array.from({ length: 4 }, () => upload(photo)));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const during = await timedSignIn();
        const answers = await uploads;
        const total = performance.now() - started;
        console.log(
          `[image-queue] sign-in ${Math.round(alone)} ms alone, ${Math.round(during)} ms during 4 x ${side} x ${side} px interlaced PNG uploads (${(photo.length / 1e6).toFixed(1)} MB; answers ${answers.map((answer) => answer.status).join(" ")}; all answered in ${Math.round(total)} ms)`,
        );
        await shop.db.delete(productImageFiles);
      }
    },
    600_000,
  );
});
