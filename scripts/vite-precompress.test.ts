import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompressFolder } from "./vite-precompress.ts";

const folder = mkdtempSync(path.join(tmpdir(), "precompress-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("precompressFolder", () => {
  it("writes .br and .gz beside each compressible file big enough to gain, and nothing else", async () => {
    const script = "export const greeting = 'namaste';\n".repeat(200);
    mkdirSync(path.join(folder, "assets"));
    writeFileSync(path.join(folder, "assets", "app-abc123.js"), script);
    writeFileSync(path.join(folder, "assets", "tiny-abc123.css"), "a{color:red}");
    writeFileSync(path.join(folder, "photo.webp"), Buffer.alloc(4096, 7));
    await precompressFolder(folder);

    const file = path.join(folder, "assets", "app-abc123.js");
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);
    expect(existsSync(path.join(folder, "assets", "tiny-abc123.css.br"))).toBe(false);
    expect(existsSync(path.join(folder, "photo.webp.br"))).toBe(false);
  });
});
