/** npm run bench: runs every bench/*.bench.ts in turn (or only those whose names contain the arguments). */
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const filters = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

for (const file of files) {
  const module = (await import(pathToFileURL(path.join(import.meta.dirname, file)).href)) as {
    default: () => Promise<void>;
  };
  await module.default();
}
