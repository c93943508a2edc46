/**
 * Writes a brotli (.br) and a gzip (.gz) file beside every compressible file of the client build, once,
 * at maximum compression, so the server picks one by Accept-Encoding (serveStatic's `precompressed`)
 * and never compresses a static file per request.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = new Set([
  ".js",
  ".mjs",
  ".css",
  ".html",
  ".svg",
  ".json",
  ".txt",
  ".xml",
  ".webmanifest",
]);
/** Smaller files fit in a packet or two anyway; the server does not compress them either. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? filesIn(full) : [full];
    }),
  );
  return nested.flat();
}

export async function precompressFolder(folder: string) {
  const files = (await filesIn(folder)).filter((file) => COMPRESSIBLE.has(path.extname(file)));
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const bytes = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: 9 }),
      ]);
      // A file that does not shrink is better sent as it is.
      if (br.length < bytes.length) await writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}

export function precompressPlugin(): Plugin {
  let outDir = "";
  let skip = false;
  return {
    name: "shop-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      // A server-side build is never sent to browsers.
      skip = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (!skip) await precompressFolder(outDir);
    },
  };
}
