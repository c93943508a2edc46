/**
 * Builds the web app when dist/ is missing or older than any of its sources,
 * so `npm start` never serves a blank or outdated page and never rebuilds for nothing.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");
const sources = [
  "web",
  "common",
  "content",
  "vite.config.ts",
  "scripts/vite-markdown.ts",
  "scripts/vite-precompress.ts",
  "package-lock.json",
];
const builtMarker = path.join(root, "dist", "index.html");

function newestModification(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestModification(path.join(target, entry))),
    stats.mtimeMs,
  );
}

const builtAt = existsSync(builtMarker) ? statSync(builtMarker).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newestModification(path.join(root, source))));

if (changedAt > builtAt) {
  console.log(builtAt ? "Web app sources changed: rebuilding." : "Building the web app (first start).");
  // Always the production build: under `npm test` NODE_ENV is "test", which would bundle React's
  // development build into dist/ and a later `npm start` would serve it as fresh.
  process.env.NODE_ENV = "production";
  await build({ configFile: path.join(root, "vite.config.ts"), mode: "production", logLevel: "warn" });
}
