import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { markdownPlugin } from "./scripts/vite-markdown.ts";

export default defineConfig({
  root: "web",
  plugins: [markdownPlugin(), react(), tailwindcss()],
  build: { outDir: "../dist", emptyOutDir: true, sourcemap: true },
  server: { proxy: { "/api": "http://localhost:3000" } },
});
