import { describe, expect, it } from "vitest";
import { APP_LOADER_SCRIPT, withAppLoader } from "./app-loader-script.ts";

// The head as Vite writes it into dist/index.html.
const built = `<head>
    <script>theme</script>
    <script type="module" crossorigin src="/assets/index-Ab1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-Cd2.js">
    <link rel="modulepreload" crossorigin href="/assets/vendor-Ef3.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Gh4.css">
  </head>`;

describe("the app loader in the built page", () => {
  it("replaces the module script and its preloads with the loader naming them", () => {
    const html = withAppLoader(built);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toContain(
      `<script data-entry="/assets/index-Ab1.js" data-preload="/assets/rolldown-runtime-Cd2.js /assets/vendor-Ef3.js">${APP_LOADER_SCRIPT}</script>`,
    );
    // The stylesheet stays where it was, and still blocks the first paint as it should.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Gh4.css">');
    expect(html.indexOf("<script>theme</script>")).toBeLessThan(html.indexOf("data-entry"));
  });

  it("refuses a page without a module script, rather than building a page that never starts", () => {
    expect(() => withAppLoader("<head></head>")).toThrow(/no module script/);
  });
});
