import { z } from "zod";
import { textLength } from "./text.ts";

export const ACCOUNT_NAME_MAX = 100;

/** Where the shop serves what was uploaded to it; an account picture may only point there. */
export const SHOP_UPLOADS_PATH = "/uploads/";

// C0 and C1 control characters (line breaks and tabs included: a name is one line), and the Unicode
// line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An account's name: 1 to 100 characters of text on one line, counted as people count them. */
export const accountNameSchema = z
  .string({ error: "The name must be text." })
  .superRefine((value, context) => {
    const length = textLength(value);
    if (CONTROL_CHARACTERS.test(value)) {
      context.addIssue({ code: "custom", message: "The name contains a character that cannot be stored." });
    } else if (value.trim() === "") {
      context.addIssue({ code: "custom", message: "Please enter a name." });
    } else if (length > ACCOUNT_NAME_MAX) {
      context.addIssue({
        code: "custom",
        message: `The name must be at most ${ACCOUNT_NAME_MAX} characters long (it has ${length}).`,
      });
    }
  });

/**
 * An account picture: none, or a file among the shop's own uploads, as a path on the shop's origin. Any
 * other address (another site, `javascript:`, `data:`) could track or attack whoever is shown the picture.
 */
export const accountImageSchema = z
  .string({ error: "The picture must be one of the shop's uploads." })
  .regex(
    new RegExp(`^${SHOP_UPLOADS_PATH}[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`),
    "The picture must be one of the shop's uploads.",
  )
  .refine((value) => !value.includes(".."), "The picture must be one of the shop's uploads.")
  .nullable();
