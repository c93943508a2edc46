/**
 * Builds the web app when dist/ (the browser's build) or dist-server/ (the server renderer of the
 * same routes) is missing or older than any of its sources, so `npm start` never serves a blank or
 * outdated page and never rebuilds for nothing.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");
const sources = [
  "web",
  "common",
  "vite.config.ts",
  "scripts/vite-precompress.ts",
  "scripts/vite-og-images.ts",
  "package-lock.json",
];
const builtMarkers = [
  path.join(root, "dist", "index.html"),
  path.join(root, "dist-server", "entry-server.js"),
];

function newestModification(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestModification(path.join(target, entry))),
    stats.mtimeMs,
  );
}

// The older of the two builds: a missing one counts as never built.
const builtAt = Math.min(
  ...builtMarkers.map((marker) => (existsSync(marker) ? statSync(marker).mtimeMs : 0)),
);
const changedAt = Math.max(...sources.map((source) => newestModification(path.join(root, source))));

if (changedAt > builtAt) {
  console.log(builtAt ? "Web app sources changed: rebuilding." : "Building the web app (first start).");
  // Always the production build: under `npm test` NODE_ENV is "test", which would bundle React's
  // development build into dist/ and a later `npm start` would serve it as fresh.
  process.env.NODE_ENV = "production";
  const configFile = path.join(root, "vite.config.ts");
  await build({ configFile, mode: "production", logLevel: "warn" });
  await build({ configFile, mode: "production", logLevel: "warn", build: { ssr: "entry-server.tsx" } });
}
