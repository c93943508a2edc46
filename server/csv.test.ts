import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv.ts";

describe("a CSV cell", () => {
  it("defuses what a spreadsheet would run as a formula", () => {
    for (const formula of ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "-", "-3.00=1"]) {
      expect(csvCell(formula).replace(/^"|"$/g, "")).toMatch(/^'/);
    }
  });

  it("leaves plain numbers, negative ones too, as numbers", () => {
    expect(csvRow(["-30.00", "-1", "0.00", 12, -4, "12.50"])).toBe("-30.00,-1,0.00,12,-4,12.50");
  });

  it("quotes commas, quotes and line breaks", () => {
    expect(csvRow(['1, "Quoted" House', "two\nlines", null])).toBe('"1, ""Quoted"" House","two\nlines",');
  });
});
