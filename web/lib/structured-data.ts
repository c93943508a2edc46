import { CATEGORY_FILTERS, type Combo, type Product } from "../../common/catalogue.ts";
import type { ShopConfig } from "../../common/shop-config.ts";
import type { StructuredData } from "./document-head.ts";

// schema.org JSON-LD for search engines, made on the server only (web/entry-server.tsx). A product's rating
// is the one its page shows, as a count of ratings rather than of reviews (docs/decisions/058 replaces 024).

const CONTEXT = "https://schema.org";

const rupees = (paise: number) => (paise / 100).toFixed(2);
const availability = (inStock: boolean) => `${CONTEXT}/${inStock ? "InStock" : "OutOfStock"}`;

function offer(url: string, pricePaise: number, inStock: boolean, config: ShopConfig) {
  return {
    "@type": "Offer",
    url,
    priceCurrency: "INR",
    price: rupees(pricePaise),
    availability: availability(inStock),
    itemCondition: `${CONTEXT}/NewCondition`,
    seller: { "@type": "Organization", name: config.shopName },
  };
}

/** The schema.org objects for what a page says it describes (PageMeta.structuredData). */
export function toJsonLd(items: StructuredData[], config: ShopConfig): object[] {
  return items.map((item) => {
    switch (item.type) {
      case "product":
        return productData(item.product, config);
      case "combo":
        return comboData(item.combo, config);
      case "breadcrumbs":
        return breadcrumbData(item.steps, config);
      case "organization":
        return organizationData(config);
      default:
        return websiteData(config);
    }
  });
}

function productData(product: Product, config: ShopConfig) {
  const url = `${config.publicUrl}/product/${product.slug}`;
  return {
    "@context": CONTEXT,
    "@type": "Product",
    name: product.name,
    image: product.images.map((image) => `${config.publicUrl}${image.large}`),
    description: product.description,
    sku: product.slug,
    category: `${CATEGORY_FILTERS[product.category].label} > ${product.subcategory}`,
    brand: { "@type": "Brand", name: config.shopName },
    url,
    offers: offer(url, product.pricePaise, product.inStock, config),
    ...aggregateRating(product),
  };
}

/**
 * The stars and count the page shows beside the price. ratingCount, not reviewCount: most were given before
 * the shop opened and have no written review behind them (the page says so too). None when there is none.
 */
function aggregateRating(product: Product) {
  if (product.reviewCount <= 0 || product.rating <= 0) return {};
  return {
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: product.rating,
      ratingCount: product.reviewCount,
      bestRating: 5,
      worstRating: 1,
    },
  };
}

function comboData(combo: Combo, config: ShopConfig) {
  const url = `${config.publicUrl}/combo/${combo.id}`;
  return {
    "@context": CONTEXT,
    "@type": "Product",
    name: combo.title,
    image: [`${config.publicUrl}${combo.image.large}`],
    description: combo.description,
    sku: `combo-${combo.id}`,
    brand: { "@type": "Brand", name: config.shopName },
    url,
    offers: offer(url, combo.salePricePaise, combo.inStock, config),
  };
}

/** Home first; every step but the page itself links somewhere. */
function breadcrumbData(steps: { name: string; path?: string }[], config: ShopConfig) {
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: steps.map((step, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: step.name,
      ...(step.path === undefined ? {} : { item: `${config.publicUrl}${step.path}` }),
    })),
  };
}

function organizationData(config: ShopConfig) {
  return {
    "@context": CONTEXT,
    "@type": "Organization",
    name: config.shopName,
    url: `${config.publicUrl}/`,
    logo: `${config.publicUrl}/favicon.svg`,
    email: config.email,
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "customer service",
      telephone: config.phone,
      email: config.email,
      areaServed: "IN",
    },
  };
}

function websiteData(config: ShopConfig) {
  return {
    "@context": CONTEXT,
    "@type": "WebSite",
    name: config.shopName,
    url: `${config.publicUrl}/`,
    inLanguage: "en-IN",
  };
}
