import type { Menu } from "../../common/catalogue.ts";
import { SECTION_IDS } from "./go-to-section.ts";

/** The header's category menus, in the spec's order; each lists the products whose `menus` name it. */
export const HEADER_MENUS: { key: Menu; label: string; all: { to: string; label: string } }[] = [
  {
    key: "bestsellers",
    label: "Bestsellers",
    all: { to: `/#${SECTION_IDS.bestSellers}`, label: "See our best sellers" },
  },
  {
    key: "haircare",
    label: "Hair",
    all: { to: `/?category=haircare#${SECTION_IDS.featured}`, label: "Shop all hair care" },
  },
  {
    key: "skincare",
    label: "Face",
    all: { to: `/?category=skincare#${SECTION_IDS.featured}`, label: "Shop all skin care" },
  },
  {
    key: "body",
    label: "Body",
    all: { to: `/?category=body#${SECTION_IDS.featured}`, label: "Shop all body care" },
  },
  {
    key: "nutrition",
    label: "Milk Range",
    all: { to: `/?category=nutrition#${SECTION_IDS.featured}`, label: "Shop all nutrition" },
  },
  {
    key: "combos",
    label: "Combos & Gifting",
    all: { to: `/#${SECTION_IDS.combos}`, label: "See combos and gift sets" },
  },
];

export function productsInMenu<T extends { menus: readonly string[] }>(
  products: readonly T[],
  menu: Menu,
): T[] {
  return products.filter((product) => product.menus.includes(menu));
}

export const EMPTY_MENU_TEXT = { desktop: "No products", mobile: "No products available" } as const;
