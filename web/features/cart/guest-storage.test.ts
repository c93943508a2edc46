import { describe, expect, it } from "vitest";
import { parseStoredCart } from "./guest-storage.ts";

describe("reading the guest cart the browser kept", () => {
  it("reads a saved cart, keeping only the fields it knows", () => {
    const text = JSON.stringify({
      items: [
        {
          id: "coconut-oil",
          kind: "product",
          name: "Coconut Oil",
          quantity: 2,
          addedPricePaise: 35000,
          price: 1,
        },
        { id: "body-combo", kind: "combo", name: "Family Bath Combo", quantity: 1 },
      ],
    });
    expect(parseStoredCart(text)).toEqual([
      { id: "coconut-oil", kind: "product", name: "Coconut Oil", quantity: 2, addedPricePaise: 35000 },
      { id: "body-combo", kind: "combo", name: "Family Bath Combo", quantity: 1 },
    ]);
  });

  it.each([
    ["not JSON", "{not json"],
    ["an array", JSON.stringify([{ id: "coconut-oil", quantity: 1 }])],
    ["a quantity of 0", JSON.stringify({ items: [{ id: "a", kind: "product", name: "A", quantity: 0 }] })],
    [
      "a quantity over 99",
      JSON.stringify({ items: [{ id: "a", kind: "product", name: "A", quantity: 100 }] }),
    ],
    ["an unknown kind", JSON.stringify({ items: [{ id: "a", kind: "gift", name: "A", quantity: 1 }] })],
    [
      "a fractional price",
      JSON.stringify({ items: [{ id: "a", kind: "product", name: "A", quantity: 1, addedPricePaise: 1.5 }] }),
    ],
    ["null", "null"],
  ])("throws on %s, so the shop starts with an empty cart", (_, text) => {
    expect(() => parseStoredCart(text)).toThrow();
  });
});
