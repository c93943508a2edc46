/** Which other products a product page and a not-found page point shoppers to. */

type Suggestible = { slug: string; name: string; category: string; reviewCount: number };

const byPopularity = (a: Suggestible, b: Suggestible) =>
  b.reviewCount - a.reviewCount || a.name.localeCompare(b.name, "en");

/** The same category first, then the rest; most reviewed first within each. */
export function pickRelatedProducts<T extends Suggestible>(
  products: readonly T[],
  current: Pick<Suggestible, "slug" | "category">,
  count = 4,
): T[] {
  const others = products.filter((product) => product.slug !== current.slug);
  const sameCategory = others.filter((product) => product.category === current.category).sort(byPopularity);
  const rest = others.filter((product) => product.category !== current.category).sort(byPopularity);
  return [...sameCategory, ...rest].slice(0, count);
}

/**
 * Products whose names share words with a slug nobody found, e.g. /product/hair-oil suggests
 * Hair Growth Oil first. Words under 3 letters ("a", "of") suggest nothing.
 */
export function suggestProducts<T extends Suggestible>(products: readonly T[], slug: string, count = 4): T[] {
  const words = [...new Set(slug.toLowerCase().split(/[^a-z0-9]+/))].filter((word) => word.length >= 3);
  if (words.length === 0) return [];
  return products
    .map((product) => {
      const name = product.name.toLowerCase();
      return { product, score: words.filter((word) => name.includes(word)).length };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || byPopularity(a.product, b.product))
    .slice(0, count)
    .map((entry) => entry.product);
}
