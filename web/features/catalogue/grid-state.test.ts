import { describe, expect, it } from "vitest";
import { changeGridState, DEFAULT_GRID_STATE, readGridState, writeGridState } from "./grid-state.ts";

const read = (query: string) => readGridState(new URLSearchParams(query));

describe("the featured grid's URL state", () => {
  it("defaults to all products, 0 to 5000 rupees, name A to Z, page 1", () => {
    expect(read("")).toEqual({
      category: undefined,
      subcategory: undefined,
      maxPrice: 5000,
      sort: "name-asc",
      page: 1,
    });
    expect(writeGridState(DEFAULT_GRID_STATE).toString()).toBe("");
  });

  it("round-trips a full view", () => {
    const state = read("category=haircare&subcategory=Hair+Oil&maxPrice=480&sort=price-high&page=2");
    expect(state).toEqual({
      category: "haircare",
      subcategory: "Hair Oil",
      maxPrice: 480,
      sort: "price-high",
      page: 2,
    });
    expect(read(writeGridState(state).toString())).toEqual(state);
  });

  it("ignores unknown or malformed values", () => {
    expect(read("category=toys&sort=cheapest&page=-3&maxPrice=lots")).toEqual(read(""));
    expect(read("page=1.5&maxPrice=").page).toBe(1);
    expect(read("maxPrice=").maxPrice).toBe(5000);
  });

  it("takes the category from the subcategory and drops a subcategory of another category", () => {
    expect(read("subcategory=Face+Oil")).toMatchObject({ category: "skincare", subcategory: "Face Oil" });
    expect(read("category=body&subcategory=Face+Oil")).toMatchObject({
      category: "body",
      subcategory: undefined,
    });
  });

  it("keeps unrelated parameters when writing", () => {
    const params = writeGridState({ ...DEFAULT_GRID_STATE, page: 3 }, new URLSearchParams("utm=mail&page=1"));
    expect(params.toString()).toBe("utm=mail&page=3");
  });

  it("goes back to page 1 when category, subcategory, price or sort changes, not when the page does", () => {
    const onPage3 = { ...DEFAULT_GRID_STATE, page: 3 };
    expect(changeGridState(onPage3, { category: "body" }).page).toBe(1);
    expect(changeGridState(onPage3, { subcategory: "Hair Oil" }).page).toBe(1);
    expect(changeGridState(onPage3, { maxPrice: 400 }).page).toBe(1);
    expect(changeGridState(onPage3, { sort: "price-low" }).page).toBe(1);
    expect(changeGridState(onPage3, { page: 2 }).page).toBe(2);
  });

  it("clears a subcategory that does not belong to a newly chosen category", () => {
    const oils = read("subcategory=Hair+Oil");
    expect(changeGridState(oils, { category: "skincare" }).subcategory).toBeUndefined();
    expect(changeGridState(oils, { category: undefined }).subcategory).toBeUndefined();
  });
});
