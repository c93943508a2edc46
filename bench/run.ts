import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * Runs every bench/*.bench.ts in turn (or those named on the command line). Each prints its own figures as
 * ratios against a baseline it measures in the same run, so results compare across machines.
 */
const folder = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(folder)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)))
  .sort();

for (const file of files) {
  console.log(`\n== ${file}`);
  const module = (await import(path.join(folder, file))) as { run: () => Promise<void> };
  await module.run();
}
