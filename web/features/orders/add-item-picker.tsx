import { useId, useState } from "react";
import { matchesSearch } from "../../../common/catalogue-rules.ts";
import { formatRupees } from "../../../common/money.ts";
import { Field, hintClass, Input } from "../../components/field.tsx";
import { useShopData } from "../../lib/shop-data.ts";

/** A product or combo the shop sells now, at today's price: what staff may add to an order. */
export type PickedItem = {
  itemId: string;
  kind: "product" | "combo";
  name: string;
  unitPricePaise: number;
};

type Candidate = PickedItem & { inStock: boolean };

/** Enough to pick from on a phone without scrolling past the order; a longer name narrows it. */
const SHOWN = 6;

/**
 * Finds a product or combo by name in the catalogue every page already holds (the root loader's: what is on
 * sale, at today's price), for staff adding it to an order. The server checks stock and price again on save.
 */
export function AddItemPicker({
  taken,
  onPick,
}: {
  /** Items already on the order, as "kind:id": not offered twice. */
  taken: ReadonlySet<string>;
  onPick: (item: PickedItem) => void;
}) {
  const { products, combos } = useShopData();
  const [query, setQuery] = useState("");
  const id = useId();
  const candidates: Candidate[] = [
    ...products.map((product) => ({
      itemId: product.slug,
      kind: "product" as const,
      name: product.name,
      unitPricePaise: product.pricePaise,
      inStock: product.inStock,
    })),
    ...combos.map((combo) => ({
      itemId: combo.id,
      kind: "combo" as const,
      name: combo.title,
      unitPricePaise: combo.salePricePaise,
      inStock: combo.inStock,
    })),
  ];
  const matches = candidates.filter(
    (item) => !taken.has(`${item.kind}:${item.itemId}`) && matchesSearch(item.name, query),
  );
  const shown = matches.slice(0, SHOWN);

  return (
    <div className="rounded-lg border border-stone-200 p-3 dark:border-stone-700">
      <Field
        id={`${id}-query`}
        label="Add an item: find a product or combo by name"
        hint="Added items are charged at today's price; the rest keep the price they were ordered at."
      >
        <Input
          type="search"
          value={query}
          autoComplete="off"
          placeholder="e.g. Badam"
          onChange={(event) => setQuery(event.target.value)}
        />
      </Field>
      {query.trim() !== "" && (
        <div aria-live="polite">
          {shown.length === 0 ? (
            <p className="mt-2 text-sm">No product or combo on sale has “{query.trim()}” in its name.</p>
          ) : (
            <>
              <ul aria-label="Matching products and combos" className="mt-2 space-y-1">
                {shown.map((item) => (
                  <li key={`${item.kind}:${item.itemId}`}>
                    <button
                      type="button"
                      disabled={!item.inStock}
                      aria-label={`Add ${item.name}, ${formatRupees(item.unitPricePaise)}${item.inStock ? "" : ", out of stock"}`}
                      className="flex min-h-11 w-full items-center justify-between gap-3 rounded-md border border-stone-200 px-3 py-2 text-left text-sm hover:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-stone-700 dark:hover:bg-stone-800"
                      onClick={() => {
                        onPick(item);
                        setQuery("");
                      }}
                    >
                      <span className="min-w-0 break-words">
                        {item.name}
                        {item.kind === "combo" && (
                          <span className="text-stone-600 dark:text-stone-400"> (combo)</span>
                        )}
                      </span>
                      <span className="shrink-0 text-stone-700 dark:text-stone-300">
                        {item.inStock ? (
                          <>
                            {formatRupees(item.unitPricePaise)}{" "}
                            <span className="font-medium text-brand-700 dark:text-brand-100">+ Add</span>
                          </>
                        ) : (
                          "Out of stock"
                        )}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              {matches.length > shown.length && (
                <p className={hintClass}>
                  {matches.length - shown.length} more match: type more of the name.
                </p>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
