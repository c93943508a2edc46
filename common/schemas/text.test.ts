import { describe, expect, it } from "vitest";
import { boundedText, textLength } from "./text.ts";

const question = boundedText("Your question", 10, 20);
const problem = (value: unknown) => {
  const result = question.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe("boundedText", () => {
  it("keeps the text exactly as written", () => {
    expect(question.parse("  <b>Hello</b>\n ")).toBe("  <b>Hello</b>\n ");
  });

  it("does not count surrounding blanks towards the minimum, but counts them towards the maximum", () => {
    expect(problem("   short   ")).toBe("Your question must be at least 10 characters long (it has 5).");
    expect(problem(`${"x".repeat(18)}   `)).toBe(
      "Your question must be at most 20 characters long (it has 21).",
    );
    expect(problem(" ".repeat(12))).toBe("Your question is required.");
    expect(problem(undefined)).toBe("Your question is required.");
  });

  it("counts characters as people do", () => {
    expect(textLength("नमस्ते")).toBe(6);
    expect(textLength("🌿🌿")).toBe(2);
    expect(problem("🌿".repeat(20))).toBeUndefined();
  });

  it("refuses NUL characters, which PostgreSQL text cannot hold", () => {
    expect(problem("Hello\u0000 world!")).toBe("Your question contains a character that cannot be stored.");
  });
});
