/**
 * Builds what `npm start` runs when it is missing or older than any of its sources: the web app (dist/, the
 * browser's build, and dist-server/, the server renderer of the same routes) and the server itself
 * (dist-node/, scripts/build-server.ts). So a start never serves a blank or outdated page, never
 * runs yesterday's server code, and never rebuilds for nothing.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "vite";
import { buildServer, serverEntry, serverSources } from "./build-server.ts";

const root = path.resolve(import.meta.dirname, "..");
const webSources = [
  "web",
  "common",
  "vite.config.ts",
  "scripts/vite-precompress.ts",
  "scripts/vite-og-images.ts",
  "package-lock.json",
];
const webBuiltMarkers = [
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

/** When the oldest of `markers` was built (a missing one counts as never) is older than the newest source. */
function isStale(sources: string[], markers: string[]) {
  const builtAt = Math.min(...markers.map((marker) => (existsSync(marker) ? statSync(marker).mtimeMs : 0)));
  const changedAt = Math.max(...sources.map((source) => newestModification(path.join(root, source))));
  return { stale: changedAt > builtAt, built: builtAt > 0 };
}

const web = isStale(webSources, webBuiltMarkers);
if (web.stale) {
  console.log(web.built ? "Web app sources changed: rebuilding." : "Building the web app (first start).");
  // Always the production build: under `npm test` NODE_ENV is "test", which would bundle React's
  // development build into dist/ and a later `npm start` would serve it as fresh.
  process.env.NODE_ENV = "production";
  const configFile = path.join(root, "vite.config.ts");
  await build({ configFile, mode: "production", logLevel: "warn" });
  await build({ configFile, mode: "production", logLevel: "warn", build: { ssr: "entry-server.tsx" } });
}

const server = isStale(serverSources, [serverEntry]);
if (server.stale) {
  console.log(server.built ? "Server sources changed: rebuilding the server." : "Building the server.");
  await buildServer();
}
