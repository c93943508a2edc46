import { describe, expect, it } from "vitest";
import { HSN_PATTERN } from "../../../common/gst.ts";
import { products } from "./catalogue.ts";
import { productTax } from "./tax.ts";

describe("seed HSN codes and rates", () => {
  it("every seed product has a well-formed HSN code and one of the seeded rates", () => {
    expect(Object.keys(productTax).sort()).toEqual(products.map((product) => product.slug).sort());
    for (const tax of Object.values(productTax)) {
      expect(tax.hsnCode).toMatch(HSN_PATTERN);
      expect([0, 500, 1800, 4000]).toContain(tax.gstRateBp);
    }
  });
});
