import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { withAppLoader } from "./common/app-loader-script.ts";
import { THEME_SCRIPT, THEME_SCRIPT_PLACEHOLDER } from "./common/theme-script.ts";
import { ogImagesPlugin } from "./scripts/vite-og-images.ts";
import { precompressPlugin } from "./scripts/vite-precompress.ts";

/** Writes the theme script into index.html's head, where the server's CSP allows it by its hash. */
function themeScriptPlugin(): Plugin {
  return {
    name: "theme-script",
    transformIndexHtml(html) {
      if (!html.includes(THEME_SCRIPT_PLACEHOLDER))
        throw new Error(`index.html lacks ${THEME_SCRIPT_PLACEHOLDER}`);
      return html.replace(THEME_SCRIPT_PLACEHOLDER, () => `<script>${THEME_SCRIPT}</script>`);
    },
  };
}

/** Puts the app loader (common/app-loader-script.ts) where Vite wrote the app's module script and preloads. */
function appLoaderPlugin(): Plugin {
  return {
    name: "app-loader",
    apply: "build",
    // After Vite has written the built assets' tags into the page.
    transformIndexHtml: { order: "post", handler: withAppLoader },
  };
}

// `vite build` makes the browser's app in dist/; `vite build --ssr entry-server.tsx` makes the server's
// renderer of the same routes in dist-server/ (outside dist/, which is served as files).
export default defineConfig(({ isSsrBuild }) => ({
  root: "web",
  plugins: isSsrBuild
    ? [react()]
    : [react(), tailwindcss(), themeScriptPlugin(), appLoaderPlugin(), ogImagesPlugin(), precompressPlugin()],
  build: isSsrBuild
    ? {
        outDir: "../dist-server",
        emptyOutDir: true,
        copyPublicDir: false,
        // The server's renderer holds every screen, staff's too (entry-server.tsx imports them): the browser
        // router's lazy import of staff's screens has nothing to split off here, and that is intended.
        rolldownOptions: { checks: { bundlerTimings: false, ineffectiveDynamicImport: false } },
      }
    : {
        outDir: "../dist",
        emptyOutDir: true,
        // No source maps in dist: everything there is public, and a map is the shop's whole source.
        sourcemap: false,
        modulePreload: {
          // Every browser the shop supports preloads modules itself: the polyfill would be dead weight on /.
          polyfill: false,
          // A lazy page's imports are fetched alongside it, except those the first page has loaded already
          // (React, the router, the runtime, the API client), and for staff's pages, which load theirs as
          // they go: the list of what to fetch alongside is part of every shopper's first download.
          resolveDependencies: (file, deps, { hostType }) => {
            if (hostType !== "js") return deps;
            if (/assets\/admin-/.test(file)) return [];
            return deps.filter((dep) => !/assets\/(vendor|rolldown-runtime|api)-/.test(dep));
          },
        },
        rolldownOptions: {
          // Rolldown's report of slow plugin callbacks prints in yellow on every first start and reads like a
          // warning to an owner; the slow ones (og-images, precompress) are slow on purpose, once per build.
          checks: { bundlerTimings: false },
          output: {
            codeSplitting: {
              // React and the router in one chunk of their own: a release of the shop's code leaves it cached,
              // and it is smaller than the two chunks they otherwise split into.
              groups: [
                { name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
              ],
            },
          },
        },
      },
  server: { proxy: { "/api": "http://localhost:3000" } },
}));
