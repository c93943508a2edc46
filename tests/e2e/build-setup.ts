import { execFileSync } from "node:child_process";
import path from "node:path";

/** Browser tests run against the built app, the one `npm start` serves. */
export default function setup() {
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/ensure-web-build.ts"], {
    cwd: root,
    stdio: "inherit",
  });
}
