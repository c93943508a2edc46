import { z } from "zod";

/**
 * Characters as people count them: code points, so "नमस्ते" or an emoji is not over-counted the way
 * UTF-16 lengths would; PostgreSQL's char_length counts the same way.
 */
export function textLength(text: string): number {
  return Array.from(text).length;
}

/**
 * Free text from a person, kept exactly as written. Blank text does not count towards the minimum;
 * the maximum counts every character stored. Messages are whole sentences a form can show as they are.
 */
export function boundedText(label: string, min: number, max: number) {
  return z.string({ error: `${label} is required.` }).superRefine((value, context) => {
    const meaningful = textLength(value.trim());
    const stored = textLength(value);
    if (value.includes("\u0000")) {
      context.addIssue({ code: "custom", message: `${label} contains a character that cannot be stored.` });
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
