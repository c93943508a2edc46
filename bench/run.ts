import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * npm run bench: runs every bench/*.bench.ts in turn. Each exports a default async function that
 * measures its operations against a baseline taken in the same run and prints the ratios, so the
 * figures compare across machines of different speed.
 */
// The shop as it is deployed (deploy/ sets NODE_ENV=production): React's production build renders the
// pages, not its development build with its checks, several times slower.
process.env.NODE_ENV = "production";
// It logs every request as deployed, hundreds of thousands of lines a run: into a file, not through the table.
process.env.LOG_FILE ||= path.resolve(import.meta.dirname, "../bench-results/shop.log");
mkdirSync(path.dirname(process.env.LOG_FILE), { recursive: true });
const folder = import.meta.dirname;
// The shop in a bench runs the built server and serves dist/: rebuilt first if any source is newer, as
// `npm start` and the tests do, so a figure is never that of an older build.
execFileSync(process.execPath, ["--import", "tsx", "scripts/ensure-build.ts"], {
  cwd: path.resolve(folder, ".."),
  stdio: "inherit",
});
const only = process.argv[2];
const files = readdirSync(folder)
  .filter((file) => file.endsWith(".bench.ts") && (!only || file.includes(only)))
  .sort();

for (const file of files) {
  console.log(`\n== ${file}`);
  const module = (await import(pathToFileURL(path.join(folder, file)).href)) as {
    default: () => Promise<void>;
  };
  await module.default();
}
