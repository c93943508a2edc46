import type { Combo } from "../../common/catalogue.ts";
import { ogImagePath, type PageMeta } from "./document-head.ts";

/** Pages without a product of their own (home, blog, policies) preview with the first combo: several products. */
export function shopImage(combos: Combo[]): PageMeta["image"] {
  const combo = combos[0];
  return combo ? { path: ogImagePath(combo.image), alt: combo.title } : undefined;
}
