import { describe, expect, it } from "vitest";
import { csvCell, csvRow, parseCsv } from "./csv.ts";

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

describe("reading CSV", () => {
  it("reads quoted commas, doubled quotes and line breaks, CRLF and a byte-order mark, with each row's line", () => {
    const text = '\uFEFFAWB,Amount\r\n"12,34","say ""hi""\nthere"\r\n\nlast,1';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ["AWB", "Amount"] },
      { line: 2, cells: ["12,34", 'say "hi"\nthere'] },
      { line: 4, cells: [""] },
      { line: 5, cells: ["last", "1"] },
    ]);
  });

  it("reads back what the export writes", () => {
    const cells = ['1, "Quoted" House', "two\nlines", ""];
    expect(parseCsv(csvRow(cells))[0]?.cells).toEqual(cells);
  });
});
