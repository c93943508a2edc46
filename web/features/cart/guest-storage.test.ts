import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { forgetMergeId, mergeIdForSavedCart, parseStoredCart } from "./guest-storage.ts";
import { MERGE_ID_KEY } from "./storage-keys.ts";

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

describe("the id a saved cart's merge is sent under", () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const stored = new Map<string, string>();
  // Stubbed for these tests only: a unit worker runs later files in the same process (vitest.config.ts).
  beforeAll(() => {
    vi.stubGlobal("window", {
      localStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
        removeItem: (key: string) => stored.delete(key),
      },
    });
  });
  afterAll(() => vi.unstubAllGlobals());
  afterEach(() => stored.clear());

  it("is kept until it is forgotten, so an unanswered merge goes out again under the same id", () => {
    const first = mergeIdForSavedCart();
    expect(first).toMatch(UUID_V4);
    expect(mergeIdForSavedCart()).toBe(first);
    forgetMergeId();
    expect(stored.has(MERGE_ID_KEY)).toBe(false);
    expect(mergeIdForSavedCart()).not.toBe(first);
  });

  it("replaces a kept value that is not an id", () => {
    stored.set(MERGE_ID_KEY, "not-an-id");
    expect(mergeIdForSavedCart()).toMatch(UUID_V4);
  });
});
