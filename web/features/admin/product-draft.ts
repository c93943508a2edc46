import { CATEGORY_FILTERS, type Category } from "../../../common/catalogue.ts";
import { typedRupeesAsPaise } from "../../../common/money.ts";
import type { AdminProduct, AdminProductImage } from "../../../common/schemas/admin-products.ts";

/** The product form's content as typed: prices stay text until sent, so nothing typed is lost to rounding. */
export type Draft = {
  name: string;
  slug: string;
  price: string;
  originalPrice: string;
  description: string;
  benefits: [string, string, string];
  category: Category;
  subcategory: string;
  badge: string;
  menus: string[];
  images: AdminProductImage[];
  active: boolean;
};

const rupeesText = (paise: number | null) =>
  paise === null ? "" : paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2);

export function draftOf(product: AdminProduct | null): Draft {
  const category = product?.category ?? "haircare";
  return {
    name: product?.name ?? "",
    slug: product?.slug ?? "",
    price: rupeesText(product?.pricePaise ?? null),
    originalPrice: rupeesText(product?.originalPricePaise ?? null),
    description: product?.description ?? "",
    benefits: product ? [...product.benefits] : ["", "", ""],
    category,
    subcategory: product?.subcategory ?? CATEGORY_FILTERS[category].subcategories[0] ?? "",
    badge: product?.badge ?? "",
    menus: product ? [...product.menus] : [],
    images: product ? product.images : [],
    active: product?.active ?? true,
  };
}

/** What a slug made from a name looks like: "Neem Hair Rinse" -> "neem-hair-rinse". */
export const slugFrom = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);

export function bodyOf(draft: Draft) {
  return {
    name: draft.name,
    slug: draft.slug,
    pricePaise: typedRupeesAsPaise(draft.price),
    originalPricePaise: typedRupeesAsPaise(draft.originalPrice),
    description: draft.description,
    benefits: draft.benefits,
    category: draft.category,
    subcategory: draft.subcategory,
    badge: draft.badge || null,
    menus: draft.menus,
    images: draft.images.map(({ key, alt }) => ({ key, alt })),
    active: draft.active,
  };
}
