import { describe, expect, it } from "vitest";
import { newRandomId } from "./random-id.ts";

describe("a random id", () => {
  it("is a version 4 UUID, different every time", () => {
    const ids = Array.from({ length: 50 }, newRandomId);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(50);
  });
});
