import { describe, expect, it } from "vitest";
import { onFirstUse } from "./first-use.ts";

describe("onFirstUse", () => {
  it("loads once, on the first call, and gives every caller the same answer", async () => {
    let loads = 0;
    const library = onFirstUse(async () => ({ loaded: ++loads }));
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([library(), library()]);
    expect(await library()).toBe(first);
    expect(second).toBe(first);
    expect(loads).toBe(1);
  });

  it("forgets a failed load, so the next call tries again", async () => {
    let attempts = 0;
    const library = onFirstUse(async () => {
      attempts++;
      if (attempts === 1) throw new Error("not there yet");
      return "loaded";
    });
    await expect(library()).rejects.toThrow("not there yet");
    await expect(library()).resolves.toBe("loaded");
    await expect(library()).resolves.toBe("loaded");
    expect(attempts).toBe(2);
  });
});
