import { execFileSync } from "node:child_process";
import path from "node:path";

const BUILT = Symbol.for("shop-test-build");
const run = globalThis as typeof globalThis & { [BUILT]?: true };

/**
 * Tests run the built app and server, the ones `npm start` runs: built here when missing or stale. Global
 * setups run in vitest's one main process, so the projects naming this check once per run.
 */
export default function setup() {
  if (run[BUILT]) return;
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/ensure-build.ts"], {
    cwd: root,
    stdio: "inherit",
  });
  run[BUILT] = true;
}
