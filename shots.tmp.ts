import { chromium } from "playwright-core";

const base = "http://localhost:3104";
const pages = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox"],
});
for (const scheme of ["light", "dark"] as const) {
  for (const width of [375, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    for (const path of pages) {
      await page.goto(base + path);
      await page.waitForLoadState("networkidle");
      const name = path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
      await page.screenshot({ path: `/tmp/accounts-shots/${name}-${width}-${scheme}.png`, fullPage: true });
    }
    await context.close();
  }
}
await browser.close();
