/**
 * Link previews (WhatsApp, Instagram, X) want a 1200x630 JPEG. During `vite build` each catalogue
 * image's 800 px WebP (web/public/images/catalogue/x-800.webp) is set on a 1200x630 canvas of the
 * shop's light stone colour and written to dist/images/og/x.jpg; web/lib/document-head.ts names the
 * same file (ogImagePath). Made at build so the shop needs no image work at run time.
 */
import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Plugin, ResolvedConfig } from "vite";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
const BACKGROUND = { r: 250, g: 250, b: 249 }; // stone-50, the page's own background

export function ogImagesPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "og-images",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      const source = path.join(config.publicDir, "images", "catalogue");
      const target = path.resolve(config.root, config.build.outDir, "images", "og");
      await mkdir(target, { recursive: true });
      const files = (await readdir(source)).filter((file) => file.endsWith("-800.webp"));
      await Promise.all(
        files.map(async (file) => {
          const picture = await sharp(path.join(source, file)).resize(OG_HEIGHT, OG_HEIGHT).toBuffer();
          await sharp({ create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 3, background: BACKGROUND } })
            .composite([{ input: picture, left: (OG_WIDTH - OG_HEIGHT) / 2, top: 0 }])
            .jpeg({ quality: 82, mozjpeg: true })
            .toFile(path.join(target, file.replace(/-800\.webp$/, ".jpg")));
        }),
      );
    },
  };
}
