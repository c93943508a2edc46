import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { markdownPlugin } from "./scripts/vite-markdown.ts";
import { precompressPlugin } from "./scripts/vite-precompress.ts";

export default defineConfig({
  root: "web",
  plugins: [markdownPlugin(), react(), tailwindcss(), precompressPlugin()],
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    // No source maps in dist: everything there is public, and a map is the shop's whole source.
    sourcemap: false,
    rolldownOptions: {
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
});
