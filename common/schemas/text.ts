import { z } from "zod";

/**
 * Characters as people count them: code points, so "नमस्ते" or an emoji is not over-counted the way
 * UTF-16 lengths would; PostgreSQL's char_length counts the same way.
 */
export function textLength(text: string): number {
  return Array.from(text).length;
}

/**
 * Control characters (C0 without tab, line feed and carriage return; DEL; C1): never part of what a person
 * types. NUL cannot even be stored in PostgreSQL text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point of this rule.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;
/** Half of a UTF-16 pair without its other half: no character at all, and not valid UTF-8 once sent on. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one rule for text in every request (bodies, path and query parameters): no control characters, no
 * broken UTF-16 (a lone surrogate), and on one line unless the field is multi-line text (messages,
 * questions, reviews, reasons, notes), which keeps its tabs and line breaks. Returns what is wrong, if any.
 */
export function textProblem(value: string, multiline = false): string | undefined {
  if (value.includes("\u0000")) return "contains a character that cannot be stored";
  if (CONTROL_CHARACTER.test(value) || LONE_SURROGATE.test(value)) return "contains a control character";
  if (!multiline && LINE_BREAK_OR_TAB.test(value)) return "must be on one line";
  return undefined;
}

/**
 * A string that passes the text rule: the base of every string field in the API's schemas (chain
 * .trim(), .min(), .max(), .regex() on it as with z.string()).
 */
export function plainText(options: { multiline?: boolean; error?: string } = {}) {
  return z.string(options.error ? { error: options.error } : undefined).superRefine((value, context) => {
    const problem = textProblem(value, options.multiline);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
}

/**
 * Free text from a person, kept exactly as written, on as many lines as it takes. Blank text does not count
 * towards the minimum; the maximum counts every character stored. Messages are whole sentences a form can
 * show as they are.
 */
export function boundedText(label: string, min: number, max: number) {
  return z.string({ error: `${label} is required.` }).superRefine((value, context) => {
    const meaningful = textLength(value.trim());
    const stored = textLength(value);
    const problem = textProblem(value, true);
    if (problem) {
      context.addIssue({ code: "custom", message: `${label} ${problem}.` });
    } else if (meaningful === 0) {
      context.addIssue({ code: "custom", message: `${label} is required.` });
    } else if (meaningful < min) {
      context.addIssue({
        code: "custom",
        message: `${label} must be at least ${min} characters long (it has ${meaningful}).`,
      });
    } else if (stored > max) {
      context.addIssue({
        code: "custom",
        message: `${label} must be at most ${max} characters long (it has ${stored}).`,
      });
    }
  });
}
