/** The catalogue's vocabulary and response shapes, shared by the API and the web app. */

export const CATEGORIES = ["haircare", "skincare", "body", "nutrition"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The spec's filter panel: each category with its subcategories, in display order. */
export const CATEGORY_FILTERS: Record<Category, { label: string; subcategories: readonly string[] }> = {
  haircare: { label: "Haircare", subcategories: ["Hair Oil", "Hair Serum", "Hair Pack", "Hair Dye"] },
  skincare: { label: "Skincare", subcategories: ["Face Pack", "Face Oil", "Face Wash"] },
  body: { label: "Body", subcategories: ["Bath Powder", "Body Oil", "Body Scrub"] },
  nutrition: {
    label: "Nutrition",
    subcategories: ["Protein Mix", "Health Drinks", "Powders", "Supplements"],
  },
};
export const SUBCATEGORIES = Object.values(CATEGORY_FILTERS).flatMap((c) => c.subcategories);

export const BADGES = ["Best Seller", "Limited Time", "New Launch", "Viral", "Legacy Product"] as const;
export type Badge = (typeof BADGES)[number];

export const MENUS = ["bestsellers", "haircare", "skincare", "body", "nutrition", "combos"] as const;
export type Menu = (typeof MENUS)[number];

export const SORT_OPTIONS = ["price-low", "price-high", "name-asc", "name-desc"] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];
export const DEFAULT_SORT: SortOption = "name-asc";

export const PAGE_SIZE = 8;
export const PAGE_SIZE_NARROW = 4; // below 768 px
export const MAX_PAGE_BUTTONS = 5;
export const DEFAULT_PRICE_RANGE = { min: 0, max: 5000 } as const; // rupees
export const SEARCH_DROPDOWN_LIMIT = 8;
export const BEST_SELLER_COUNT = 4;
export const BEST_SELLER_MIN_RATING = 4.6;

export type ProductImage = {
  /** 400 px square WebP */
  small: string;
  /** 800 px square WebP */
  large: string;
  width: number;
  height: number;
  /** What the photo shows, as the owner wrote it; without one, pages describe it by the product's name. */
  alt?: string;
};

export type Product = {
  slug: string;
  name: string;
  description: string;
  category: Category;
  subcategory: string;
  badge: Badge | null;
  pricePaise: number;
  originalPricePaise: number | null;
  rating: number;
  reviewCount: number;
  benefits: string[];
  images: ProductImage[];
  /** The first image, as the spec derives it. */
  image: ProductImage;
  menus: Menu[];
  inStock: boolean;
};

export type Combo = {
  id: string;
  title: string;
  description: string;
  badge: string;
  benefits: string[];
  originalPricePaise: number;
  salePricePaise: number;
  savingsPaise: number;
  /** The owner's picture of the combo when there is one, else its first product's. */
  image: ProductImage;
  /** Whether `image` is the owner's own picture: then the card shows it instead of the products'. */
  ownPicture: boolean;
  products: Pick<Product, "slug" | "name" | "image" | "pricePaise">[];
  inStock: boolean;
};

export type ProductPage = { items: Product[]; total: number; page: number; pageSize: number };

/** Keys of photos uploaded in the admin: `uploads/` and the hash of the upload (its files never change). */
export const UPLOADED_IMAGE_KEY = /^uploads\/[0-9a-f]{32}$/;

/**
 * A stored image key as the addresses the shop serves: a bundled base name (files under
 * /images/catalogue/), or an uploaded photo's key (served from the database under /images/uploads/).
 */
export function imageFor(key: string, alt?: string): ProductImage {
  const base = UPLOADED_IMAGE_KEY.test(key) ? `/images/${key}` : `/images/catalogue/${key}`;
  return {
    small: `${base}-400.webp`,
    large: `${base}-800.webp`,
    width: 800,
    height: 800,
    ...(alt ? { alt } : {}),
  };
}
