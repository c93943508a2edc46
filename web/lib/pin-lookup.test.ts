import { describe, expect, it } from "vitest";
import { cityForPin } from "./pin-lookup.ts";

describe("the city a PIN fills", () => {
  it("replaces the old address's city and an earlier lookup's, and fills an empty one", () => {
    expect(cityForPin("Bengaluru", "Chennai", ["Bengaluru"])).toBe("Chennai");
    expect(cityForPin("Mumbai", "Chennai", ["", "Mumbai"])).toBe("Chennai");
    expect(cityForPin("  ", "Chennai", [])).toBe("Chennai");
  });

  it("keeps a city the person typed themselves", () => {
    expect(cityForPin("Mylapore", "Chennai", ["Bengaluru"])).toBe("Mylapore");
  });
});
