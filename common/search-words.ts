/**
 * Search by every typed word (issue 41, docs/decisions/079): what answers when the specification's substring
 * rule finds nothing. Kept apart from common/catalogue-rules.ts so the shop's first page does not carry it: the
 * search box loads it once someone types (web/components/use-word-search.ts); the API imports it directly.
 */

type Described = { name: string; category: string; subcategory: string; description?: string };

/** Lower-cased words of a text: runs of letters and digits ("Hair-Growth" is two words). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Every typed word must begin a word of the name, category, subcategory or description, in any order ("oil"
 * does not find "soil"); those with more of the words in their name come first, then the catalogue's order,
 * so the product the words name leads the dropdown.
 */
export function searchByWords<T extends Described>(products: readonly T[], query: string): T[] {
  const typed = wordsOf(query);
  if (typed.length === 0) return [];
  const begins = (words: string[], word: string) => words.some((candidate) => candidate.startsWith(word));
  return products
    .map((product, index) => {
      const nameWords = wordsOf(product.name);
      const words = nameWords.concat(
        wordsOf(`${product.category} ${product.subcategory} ${product.description ?? ""}`),
      );
      return {
        product,
        index,
        found: typed.every((word) => begins(words, word)),
        inName: typed.filter((word) => begins(nameWords, word)).length,
      };
    })
    .filter((match) => match.found)
    .sort((a, b) => b.inName - a.inName || a.index - b.index)
    .map((match) => match.product);
}

export type WordSearch = typeof searchByWords;
