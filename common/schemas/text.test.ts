import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as address from "./address.ts";
import * as cart from "./cart.ts";
import * as catalogue from "./catalogue.ts";
import * as contact from "./contact.ts";
import * as orders from "./orders.ts";
import * as questions from "./questions.ts";
import * as reviews from "./reviews.ts";
import { boundedText, textLength, textProblem } from "./text.ts";

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
    expect(problem("Hello\u001b[31m world!")).toBe("Your question contains a control character.");
  });
});

describe("the text rule every string of a request follows", () => {
  it("refuses NUL and other control characters, and line breaks and tabs outside multi-line text", () => {
    expect(textProblem("Meera Iyer")).toBeUndefined();
    expect(textProblem("नमस्ते 🌿")).toBeUndefined();
    expect(textProblem("a\u0000b")).toBe("contains a character that cannot be stored");
    for (const control of ["\u0001", "\u0007", "\u001b", "\u007f", "\u0085", "\u009f", "\ud800", "x\udc00"]) {
      expect(textProblem(`a${control}b`, true), JSON.stringify(control)).toBe("contains a control character");
    }
    expect(textProblem("line one\nline two")).toBe("must be on one line");
    expect(textProblem("tab\there")).toBe("must be on one line");
    expect(textProblem("line one\r\n\tline two", true)).toBeUndefined();
  });

  it("is the base of every string field in every schema of common/schemas", () => {
    const modules = [address, cart, catalogue, contact, orders, questions, reviews];
    const strings = modules.flatMap((module) =>
      Object.entries(module).flatMap(([name, value]) =>
        value instanceof z.ZodType ? stringsIn(value, name) : [],
      ),
    );
    expect(strings.length).toBeGreaterThan(30);
    for (const { path, schema } of strings) {
      for (const bad of ["ab\u0000cd", "ab\u0007cd", "ab\ud800cd"]) {
        expect(schema.safeParse(bad).success, `${path} took ${JSON.stringify(bad)}`).toBe(false);
      }
    }
  });
});

/** Every string schema inside a schema, by where it sits (objects, arrays, optionals, pipes, unions). */
function stringsIn(schema: z.ZodType, path: string): { path: string; schema: z.ZodType }[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (child: unknown, where = path) => (child instanceof z.ZodType ? stringsIn(child, where) : []);
  switch (def.type) {
    case "string":
      return [{ path, schema }];
    case "object":
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
        stringsIn(child, `${path}.${key}`),
      );
    case "array":
      return inner(def.element, `${path}[]`);
    case "pipe":
      return [...inner(def.in), ...inner(def.out)];
    case "union":
      return (def.options as z.ZodType[]).flatMap((option) => stringsIn(option, path));
    default:
      return "innerType" in def ? inner(def.innerType) : [];
  }
}
