import type { UIMatch } from "react-router";
import type { Combo, Product, ProductImage } from "../../common/catalogue.ts";
import type { ShopData } from "./shop-data.ts";

/** "Face Glow Oil | Prakriti Naturals" */
export const pageTitle = (title: string, shopName: string) => `${title} | ${shopName}`;

/** What a page says about itself in <head>: the server writes it into the HTML, the browser keeps it current. */
export type PageMeta = {
  title: string;
  description?: string;
  /** og:type; "website" when unset. */
  type?: "website" | "product" | "article";
  /** The picture link previews show: a 1200x630 JPEG made at build time (see scripts/vite-og-images.ts). */
  image?: { path: string; alt: string };
  /** product:price:amount, in paise (written in rupees). */
  pricePaise?: number;
  /**
   * What the page's JSON-LD describes. The server turns it into schema.org objects
   * (web/lib/structured-data.ts, never downloaded by the browser): search engines read each address's
   * server HTML, and the first visit stays within its JavaScript budget.
   */
  structuredData?: StructuredData[];
  /** The address search engines should file the page under, when not its own path (home at any path). */
  canonicalPath?: string;
  /** The image the page opens with (its largest paint): the server HTML preloads it. */
  leadImage?: { image: ProductImage; sizes: string };
  /** Pages a search engine has no business showing (cart, account, admin). */
  noindex?: boolean;
};

export type StructuredData =
  | { type: "product"; product: Product }
  | { type: "combo"; combo: Combo }
  | { type: "breadcrumbs"; steps: { name: string; path?: string }[] }
  | { type: "organization" }
  | { type: "website" };

export type MetaArgs<Data> = { data: Data; shop: ShopData; pathname: string };

/** A route's `handle`: how its page describes itself, and layout hints the root layout reads. */
export type RouteHandle<Data = unknown> = {
  meta?: (args: MetaArgs<Data>) => PageMeta;
  fullWidth?: boolean;
  /** A section with a frame of its own (the admin): no shop banner, header, menus or footer around it. */
  ownFrame?: boolean;
};

/** Browser-only screens (cart, account, admin): their own title, and kept out of search engines. */
export const privatePage =
  (title: string) =>
  ({ shop }: MetaArgs<unknown>): PageMeta => ({
    title: pageTitle(title, shop.config.shopName),
    noindex: true,
  });

export const DEFAULT_DESCRIPTION =
  "Natural hair oils, face packs, bath powders and traditional nutrition mixes, made in small batches in India. Cash on delivery and UPI.";

/** /images/catalogue/face-glow-oil-1-800.webp -> /images/og/face-glow-oil-1.jpg (made by the build). */
export const ogImagePath = (image: ProductImage) =>
  image.large.replace("/images/catalogue/", "/images/og/").replace(/-800\.webp$/, ".jpg");

export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** Pages without a product of their own (home, blog, policies) preview with the first combo: several products. */
export function shopImage(combos: Combo[]): PageMeta["image"] {
  const combo = combos[0];
  return combo ? { path: ogImagePath(combo.image), alt: combo.title } : undefined;
}

/** The page's own description: the deepest route that has one decides; the home page's otherwise. */
export function describePage(matches: UIMatch[], pathname: string): PageMeta {
  const shop = matches[0]?.data as ShopData | undefined;
  if (!shop) return { title: "Prakriti Naturals", description: DEFAULT_DESCRIPTION };
  for (const match of [...matches].reverse()) {
    const meta = (match.handle as RouteHandle | undefined)?.meta;
    if (meta) return meta({ data: match.data, shop, pathname });
  }
  return { title: shop.config.shopName, description: DEFAULT_DESCRIPTION };
}

export type HeadTag = { tag: "meta" | "link"; attrs: Record<string, string> };

/** JSON inside a <script> element: "<" never appears, so no "</script>" in the data can end it. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** Every tag of the head that differs per page, besides <title> and JSON-LD (the server's alone). */
export function headTags(meta: PageMeta, publicUrl: string, pathname: string, shopName: string): HeadTag[] {
  const url = `${publicUrl}${meta.canonicalPath ?? pathname}`;
  const tags: HeadTag[] = [];
  const named = (name: string, content: string) => tags.push({ tag: "meta", attrs: { name, content } });
  const property = (name: string, content: string) =>
    tags.push({ tag: "meta", attrs: { property: name, content } });
  if (meta.description) named("description", meta.description);
  if (meta.noindex) {
    named("robots", "noindex");
    return tags;
  }
  tags.push({ tag: "link", attrs: { rel: "canonical", href: url } });
  property("og:title", meta.title);
  if (meta.description) property("og:description", meta.description);
  property("og:url", url);
  property("og:type", meta.type ?? "website");
  property("og:locale", "en_IN");
  // The preview card's brand line: WhatsApp and Facebook show it above the title.
  property("og:site_name", shopName);
  named("twitter:card", meta.image ? "summary_large_image" : "summary");
  named("twitter:title", meta.title);
  if (meta.description) named("twitter:description", meta.description);
  if (meta.image) {
    const image = `${publicUrl}${meta.image.path}`;
    property("og:image", image);
    property("og:image:type", "image/jpeg");
    property("og:image:width", String(OG_IMAGE_SIZE.width));
    property("og:image:height", String(OG_IMAGE_SIZE.height));
    // The picture is the product on a plain ground, made once at build; the shop's name goes in its alt
    // rather than into the pixels, so a renamed shop is never previewed under its old name.
    const alt = meta.image.alt.includes(shopName) ? meta.image.alt : `${meta.image.alt}, by ${shopName}`;
    property("og:image:alt", alt);
    named("twitter:image", image);
    named("twitter:image:alt", alt);
  }
  if (meta.pricePaise !== undefined) {
    property("product:price:amount", (meta.pricePaise / 100).toFixed(2));
    property("product:price:currency", "INR");
  }
  return tags;
}

/** Marks the tags a page owns, so moving to another page replaces exactly those. */
export const HEAD_TAG_MARK = "data-page-head";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** An image's srcset, the same in the page and in the preload, so the browser fetches one file. */
export const imageSrcSet = (image: ProductImage) => `${image.small} 400w, ${image.large} 800w`;

/** The head as server HTML: the title, the lead image's preload, the page's tags and JSON-LD, each marked as the page's. */
export function renderHeadHtml(meta: PageMeta, tags: HeadTag[], jsonLd: object[]): string {
  const lines = [`<title>${escapeHtml(meta.title)}</title>`];
  if (meta.leadImage) {
    const { image, sizes } = meta.leadImage;
    lines.push(
      `<link rel="preload" as="image" type="image/webp" href="${escapeHtml(image.large)}" imagesrcset="${escapeHtml(imageSrcSet(image))}" imagesizes="${escapeHtml(sizes)}" fetchpriority="high" />`,
    );
  }
  for (const tag of tags) {
    const attrs = Object.entries(tag.attrs)
      .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
      .join("");
    lines.push(`<${tag.tag}${attrs} ${HEAD_TAG_MARK} />`);
  }
  for (const data of jsonLd) {
    lines.push(`<script type="application/ld+json" ${HEAD_TAG_MARK}>${scriptJson(data)}</script>`);
  }
  return lines.join("\n    ");
}
