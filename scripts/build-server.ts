/**
 * The server as built JavaScript (dist-node/main.mjs, and a chunk with what only a serving process loads),
 * so a start runs our code bundled once instead of compiling some 240 TypeScript files through tsx's loader
 * hooks every time (decision 092, "A start from built JavaScript"). Packages stay in node_modules and are
 * loaded by node as they are.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { loadPinDirectory } from "../server/delivery/pin-directory.ts";

const root = path.resolve(import.meta.dirname, "..");
// Not inside dist/ or dist-server/: the web app's build empties those.
export const serverOutDir = path.join(root, "dist-node");
export const serverEntry = path.join(serverOutDir, "main.mjs");
/** How `npm start` runs the built server (source maps: a logged stack names our TypeScript files). */
export const runServer = ["--enable-source-maps", serverEntry];
/** What the bundle is built from: when any of it is newer than the bundle, the bundle is stale. */
export const serverSources = ["server", "common", "scripts/build-server.ts", "package-lock.json"];

// A module of ours finds files beside its source (dist/ from server/app.ts, the migrations from
// server/db/client.ts). In the bundle each keeps its source's place, as a path from the project's root,
// which the bundle finds from its own place: the project can be moved or copied after a build.
const PLACES = `import { fileURLToPath as __placeToPath, pathToFileURL as __placeToUrl } from "node:url";
const __projectRoot = __placeToPath(new URL("../", import.meta.url));
const __sourcePath = (fromRoot) => __projectRoot + fromRoot;
const __sourceUrl = (fromRoot) => __placeToUrl(__sourcePath(fromRoot)).href;`;

const sourcePlaces: Plugin = {
  name: "source-places",
  setup(bundle) {
    bundle.onLoad({ filter: /\.tsx?$/ }, async ({ path: file }) => {
      if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const fromRoot = path.relative(root, file).split(path.sep).join("/");
      const contents = (await readFile(file, "utf8"))
        .replaceAll("import.meta.dirname", `__sourcePath(${JSON.stringify(path.posix.dirname(fromRoot))})`)
        .replaceAll("import.meta.filename", `__sourcePath(${JSON.stringify(fromRoot)})`)
        .replaceAll("import.meta.url", `__sourceUrl(${JSON.stringify(fromRoot)})`);
      return { contents, loader: file.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

export async function buildServer() {
  // Chunks are named by their content: an earlier build's would otherwise stay beside the new ones.
  await rm(serverOutDir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, "server", "main.ts")],
    outdir: serverOutDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // A cluster's primary only starts the database and watches its workers: what only a serving process
    // needs (server/serve.ts, imported when serving) stays in a chunk of its own that the primary never loads.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    banner: { js: PLACES },
    // India Post's directory as the server uses it, made now rather than from the package's 34 MB file at
    // every start of every process (about a CPU-second each).
    define: { BUILT_PIN_DIRECTORY: JSON.stringify(JSON.stringify([...(await loadPinDirectory())])) },
    plugins: [sourcePlaces],
    logLevel: "warning",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await buildServer();
}
