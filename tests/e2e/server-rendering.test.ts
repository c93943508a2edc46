import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createDb } from "../../server/db/client.ts";
import { showColorScheme } from "../color-scheme.ts";
import { newContext, type Shop, screenshot, sidewaysOverflow, waitForApp } from "../fixtures.ts";
import { metaOf, readHtml, structuredDataOf } from "../page-html.ts";
import { ownShopForFile } from "../shop-test.ts";

let shop: Shop;
let browser: Browser;
const PUBLIC_URL = "https://shop.example.in";

ownShopForFile(
  (started) => {
    ({ shop, browser } = started);
  },
  { PUBLIC_URL },
);

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${shop.url}${path}`, { headers });

describe("the server HTML of a product page", () => {
  it("carries the page itself, its title, description, canonical, link-preview tags and JSON-LD", async () => {
    const response = await get("/product/badam-mix");
    expect(response.status).toBe(200);
    const html = await response.text();
    const page = readHtml(html);

    expect(html).toContain("<title>Badam Mix | Prakriti Naturals</title>");
    expect(metaOf(page, "description")).toMatch(/^A rich milk mix of roasted almonds/);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/product/badam-mix"`);
    expect(metaOf(page, "og:title")).toBe("Badam Mix | Prakriti Naturals");
    expect(metaOf(page, "og:description")).toMatch(/^A rich milk mix/);
    expect(metaOf(page, "og:url")).toBe(`${PUBLIC_URL}/product/badam-mix`);
    expect(metaOf(page, "og:type")).toBe("product");
    expect(metaOf(page, "og:image")).toBe(`${PUBLIC_URL}/images/og/badam-mix-1.jpg`);
    // The preview names the shop (issue 30): the card's brand line and the picture's description.
    expect(metaOf(page, "og:site_name")).toBe("Prakriti Naturals");
    expect(metaOf(page, "og:image:alt")).toBe("Badam Mix, by Prakriti Naturals");
    expect(metaOf(page, "twitter:image:alt")).toBe("Badam Mix, by Prakriti Naturals");
    expect(metaOf(page, "twitter:card")).toBe("summary_large_image");
    expect(metaOf(page, "product:price:amount")).toBe("399.00");
    expect(metaOf(page, "product:price:currency")).toBe("INR");

    // The page's content is in the HTML, not filled in later.
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toMatch(/<h1[^>]*>Badam Mix<\/h1>/);
    expect(root).toContain("₹399");

    // The lead image is preloaded, at high priority, with the same srcset and sizes as the page's <img>.
    expect(html).toMatch(
      /<link rel="preload" as="image" type="image\/webp" href="\/images\/catalogue\/badam-mix-1-800.webp" imagesrcset="\/images\/catalogue\/badam-mix-1-400.webp 400w, \/images\/catalogue\/badam-mix-1-800.webp 800w" imagesizes="[^"]+" fetchpriority="high"/,
    );

    const data = structuredDataOf(page);
    const product = data.find((item) => item["@type"] === "Product");
    expect(product).toMatchObject({
      "@context": "https://schema.org",
      name: "Badam Mix",
      sku: "badam-mix",
      brand: { "@type": "Brand", name: "Prakriti Naturals" },
      url: `${PUBLIC_URL}/product/badam-mix`,
      offers: {
        "@type": "Offer",
        price: "399.00",
        priceCurrency: "INR",
        availability: "https://schema.org/InStock",
      },
    });
    expect(product?.image).toContain(`${PUBLIC_URL}/images/catalogue/badam-mix-1-800.webp`);
    // The stars and count the page shows, as ratings (docs/decisions/058).
    const catalogue = {
      product: (await (await get("/api/products/badam-mix")).json()) as {
        rating: number;
        reviewCount: number;
      },
    };
    expect(product?.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: catalogue.product.rating,
      ratingCount: catalogue.product.reviewCount,
      bestRating: 5,
      worstRating: 1,
    });
    expect(root).toContain(catalogue.product.reviewCount.toLocaleString("en-IN"));
    const trail = data.find((item) => item["@type"] === "BreadcrumbList") as
      | { itemListElement: { position: number; name: string }[] }
      | undefined;
    expect(trail?.itemListElement.map((step) => step.name)).toEqual(["Home", "Nutrition", "Badam Mix"]);
  });

  it("makes the link-preview picture a 1200x630 JPEG", async () => {
    const response = await get("/images/og/badam-mix-1.jpg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The JPEG's frame header (SOF0/SOF2) holds its height and width.
    const frame = bytes.findIndex(
      (byte, index) => byte === 0xff && [0xc0, 0xc2].includes(bytes[index + 1] ?? 0),
    );
    const at = (offset: number) => ((bytes[frame + offset] ?? 0) << 8) | (bytes[frame + offset + 1] ?? 0);
    expect([at(7), at(5)]).toEqual([1200, 630]);
  });

  it("answers 304 to a revalidation with the page's ETag", async () => {
    const first = await get("/product/badam-mix");
    const tag = first.headers.get("etag");
    expect(tag).toBeTruthy();
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await get("/product/badam-mix", { "If-None-Match": tag ?? "" });
    expect(again.status).toBe(304);
  });

  it("is rendered once per catalogue version: a new price is in the next page, under a new ETag", async () => {
    const first = await get("/product/badam-mix");
    const tag = first.headers.get("etag");
    expect(await first.text()).toContain("₹399");
    expect((await get("/product/badam-mix")).headers.get("etag")).toBe(tag);

    const { pool } = createDb(shop.databaseUrl ?? "", { max: 1 });
    try {
      await pool.query("update products set price_paise = 41900 where slug = 'badam-mix'");
      // The change reaches the instance as a notification: the next pages after it carry the new price.
      await expect
        .poll(async () => (await get("/product/badam-mix")).headers.get("etag"), { timeout: 10_000 })
        .not.toBe(tag);
      const changed = await (await get("/product/badam-mix", { "If-None-Match": tag ?? "" })).text();
      expect(changed).toContain("₹419");
      expect(changed).not.toContain("₹399");
    } finally {
      await pool.query("update products set price_paise = 39900 where slug = 'badam-mix'");
      await pool.end();
    }
    // Back to the first price, the page is the first page again, byte for byte.
    await expect
      .poll(async () => (await get("/product/badam-mix")).headers.get("etag"), { timeout: 10_000 })
      .toBe(tag);
  });

  it("never carries a visitor's cookies into the HTML, so every visitor gets the same page", async () => {
    const anonymous = await (await get("/product/badam-mix")).text();
    const withCookie = await (
      await get("/product/badam-mix", { Cookie: "better-auth.session_token=x" })
    ).text();
    expect(withCookie).toBe(anonymous);
  });
});

describe("the head of other pages", () => {
  it("gives the home page Organization and WebSite data, and any other path the home page filed under /", async () => {
    const home = await (await get("/")).text();
    const homePage = readHtml(home);
    const types = structuredDataOf(homePage).map((item) => item["@type"]);
    expect(types).toEqual(expect.arrayContaining(["Organization", "WebSite"]));
    expect(home).toContain(`<link rel="canonical" href="${PUBLIC_URL}/"`);
    expect(metaOf(homePage, "og:image")).toMatch(/^https:\/\/shop\.example\.in\/images\/og\/.+\.jpg$/);

    const elsewhere = await get("/no/such/page");
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain(`<link rel="canonical" href="${PUBLIC_URL}/"`);
  });

  it("describes a combo as a Product with its offer", async () => {
    const combo = readHtml(await (await get("/combo/nutrition-combo")).text());
    const product = structuredDataOf(combo).find((item) => item["@type"] === "Product");
    expect(product).toMatchObject({ offers: { priceCurrency: "INR", availability: expect.any(String) } });
    expect(metaOf(combo, "product:price:currency")).toBe("INR");
  });

  it("renders blog and policy pages with their own title", async () => {
    for (const [path, title] of [
      ["/blog", "Blog | Prakriti Naturals"],
      ["/privacy", "Privacy Policy | Prakriti Naturals"],
      ["/contact", "Contact Us | Prakriti Naturals"],
    ]) {
      const html = await (await get(path ?? "")).text();
      expect(html, path).toContain(`<title>${title}</title>`);
      expect(html, path).toMatch(/<div id="root">.*<h1/s);
    }
  });

  it("sends the shell to pages that depend on the visitor", async () => {
    const html = await (await get("/cart")).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain("router-data");
  });
});

describe("unknown products, combos and articles", () => {
  it.each([
    ["/product/no-such-thing", "We couldn't find that product"],
    ["/combo/no-such-combo", "We couldn't find that combo"],
    ["/blog/no-such-article", "We couldn't find that article"],
  ])("%s answers 404 with the not-found page and suggestions", async (path, heading) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain(heading.replace("'", "&#x27;"));
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(html).toMatch(/href="\/(product|combo|blog)\/[a-z-]+"/);
  });
});

describe("crawl files", () => {
  it("robots.txt keeps private pages and the API out and names the sitemap", async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const path of ["/cart", "/checkout", "/orders", "/settings", "/questions", "/admin", "/api/"]) {
      expect(text).toContain(`Disallow: ${path}\n`);
    }
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("sitemap.xml lists every public page with a lastmod", async () => {
    const response = await get("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    const urls = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod><\/url>/g)];
    const locs = urls.map((match) => match[1]);
    expect(xml.match(/<url>/g)?.length).toBe(urls.length); // every entry has its lastmod
    const expected = ["/", "/product/badam-mix", "/combo/nutrition-combo", "/blog", "/privacy", "/terms"];
    for (const path of [
      ...expected,
      "/cookie-policy",
      "/shipping-delivery",
      "/cancellation-refund",
      "/contact",
    ]) {
      expect(locs).toContain(`${PUBLIC_URL}${path}`);
    }
    expect(locs.filter((loc) => loc?.includes("/product/"))).toHaveLength(21);
    expect(locs.filter((loc) => loc?.includes("/blog/")).length).toBeGreaterThan(0);
    expect(locs.some((loc) => /cart|admin|login/.test(loc ?? ""))).toBe(false);
  });
});

/** Console errors and warnings, and every API request, from the first byte on. */
function watch(page: Page) {
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) apiCalls.push(pathname);
  });
  return { problems, apiCalls };
}

describe("hydration", () => {
  it.each(["/", "/product/badam-mix", "/combo/nutrition-combo", "/blog", "/privacy", "/contact"])(
    "%s hydrates without an error or mismatch, and without fetching again what the HTML carries",
    async (path) => {
      const context = await newContext(browser, shop, { viewport: "phone" });
      const page = await context.newPage();
      const { problems, apiCalls } = watch(page);
      await page.goto(path);
      await waitForApp(page);
      await page.waitForLoadState("networkidle");
      expect(problems).toEqual([]);
      expect(apiCalls.filter((call) => /^\/api\/(products|combos|config)/.test(call))).toEqual([]);
      await context.close();
    },
  );

  it("asks for the app's code once the page has painted, after its lead picture", async () => {
    const context = await newContext(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    const { problems } = watch(page);
    await page.goto("/product/badam-mix");
    await waitForApp(page);
    const started = await page.evaluate(() => {
      const resources = performance.getEntriesByType("resource");
      const startOf = (pattern: RegExp) => resources.find((entry) => pattern.test(entry.name))?.startTime;
      return {
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
        picture: startOf(/\/images\/catalogue\/badam-mix-1-\d+\.webp$/),
        app: startOf(/\/assets\/index-[\w-]+\.js$/),
        vendor: startOf(/\/assets\/vendor-[\w-]+\.js$/),
      };
    });
    expect(started.paint).toBeGreaterThan(0);
    expect(started.picture).toBeLessThan(started.paint ?? 0);
    expect(started.app).toBeGreaterThanOrEqual(started.paint ?? Number.POSITIVE_INFINITY);
    expect(started.vendor).toBeGreaterThanOrEqual(started.paint ?? Number.POSITIVE_INFINITY);
    // The loader and the theme script are allowed by the CSP (a refused one is a console error here).
    expect(problems).toEqual([]);
    await context.close();
  });

  it("starts the app at once on a page the server leaves to it, which has nothing to paint before it", async () => {
    const context = await newContext(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    await page.goto("/login");
    await waitForApp(page);
    const started = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const app = performance
        .getEntriesByType("resource")
        .find((entry) => /\/assets\/index-[\w-]+\.js$/.test(entry.name));
      return { app: app?.startTime, contentLoaded: navigation?.domContentLoadedEventEnd };
    });
    // Asked for in the DOMContentLoaded handler, not after the loader's 3-second fallback.
    expect(started.app).toBeLessThanOrEqual(started.contentLoaded ?? 0);
    await context.close();
  });

  it("keeps a dark theme from the first paint, before any JavaScript of the app", async () => {
    const context = await newContext(browser, shop, { colorScheme: "dark" });
    const page = await context.newPage();
    // The app's module scripts never run: what shows is the server's HTML with the blocking theme script.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/product/badam-mix");
    await expect(page.evaluate(() => document.documentElement.classList.contains("dark"))).resolves.toBe(
      true,
    );
    await expect(page.locator("main h1").textContent()).resolves.toBe("Badam Mix");
    await context.close();
  });

  it("moves focus to the new page's heading on navigation", async () => {
    const context = await newContext(browser, shop);
    const page = await context.newPage();
    await page.goto("/blog");
    await waitForApp(page);
    await page.locator("main article a").first().click();
    await page.waitForURL(/\/blog\/.+/);
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    await expect(page.evaluate(() => document.activeElement?.closest("main") !== null)).resolves.toBe(true);
    await context.close();
  });

  /** The page shows its heading and fits the window: nothing reaches past its right edge. */
  async function fitsTheWindow(page: Page, view: string) {
    await expect(page.locator("main h1").first().isVisible(), view).resolves.toBe(true);
    expect(await sidewaysOverflow(page), view).toBeLessThanOrEqual(0);
  }

  // A page per width and path, loaded once without JavaScript and once hydrated, each looked at in both themes
  // (the system setting switched under it): eight page loads for sixteen views (and screenshots, when asked).
  it.each([
    ["phone", "/"],
    ["phone", "/product/badam-mix"],
    ["desktop", "/"],
    ["desktop", "/product/badam-mix"],
  ] as const)(
    "fits the %s width at %s, light and dark, without JavaScript and hydrated",
    async (viewport, path) => {
      const name = (colorScheme: string) =>
        `ssr-${path === "/" ? "home" : "product"}-${viewport}-${colorScheme}`;
      const plain = await browser.newContext({
        baseURL: shop.url,
        viewport: viewport === "phone" ? { width: 375, height: 812 } : { width: 1280, height: 900 },
        javaScriptEnabled: false,
      });
      const page = await plain.newPage();
      await page.goto(path);
      for (const colorScheme of ["light", "dark"] as const) {
        // Nothing runs without JavaScript: the page is the server's HTML in either setting.
        await page.emulateMedia({ colorScheme });
        await fitsTheWindow(page, `${name(colorScheme)}-no-js`);
        await screenshot(page, `${name(colorScheme)}-no-js`);
      }
      await plain.close();

      const context = await newContext(browser, shop, { viewport });
      const hydrated = await context.newPage();
      await hydrated.goto(path);
      await waitForApp(hydrated);
      for (const colorScheme of ["light", "dark"] as const) {
        await showColorScheme(hydrated, colorScheme);
        await fitsTheWindow(hydrated, `${name(colorScheme)}-hydrated`);
        await screenshot(hydrated, `${name(colorScheme)}-hydrated`);
      }
      await context.close();
    },
  );
});
