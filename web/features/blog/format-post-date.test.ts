import { describe, expect, it } from "vitest";
import { formatPostDate } from "./format-post-date.ts";

describe("formatPostDate", () => {
  it("writes the day, the month's name and the year", () => {
    expect(formatPostDate("2026-10-20")).toBe("20 October 2026");
    expect(formatPostDate("2026-06-08")).toBe("8 June 2026");
  });

  it("keeps the calendar date west of Greenwich, where a UTC midnight is the day before", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      expect(formatPostDate("2026-01-01")).toBe("1 January 2026");
    } finally {
      process.env.TZ = zone;
    }
  });
});
