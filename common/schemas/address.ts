import { z } from "zod";
import { INDIAN_STATE_NAMES, normalizeMobile, PIN_PATTERN, pinMatchesState } from "../india.ts";
import { plainText } from "./text.ts";

const text = (label: string, max: number) =>
  plainText().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

/**
 * A delivery address as the checkout form sends it. The same schema checks the form in the browser
 * and the body on the server, so both give the same messages.
 */
export const addressInputSchema = z
  .object({
    name: text("Name", 80),
    phone: plainText().transform((value, context) => {
      const mobile = normalizeMobile(value);
      if (!mobile) {
        context.addIssue({ code: "custom", message: "Enter a 10-digit Indian mobile number" });
        return z.NEVER;
      }
      return mobile;
    }),
    line1: text("House, flat or building", 120),
    line2: plainText().trim().max(120, "Street and area must be at most 120 characters").default(""),
    city: text("City or town", 60),
    /** Filled from the PIN code's entry in India Post's directory; optional, for addresses typed by hand. */
    district: plainText().trim().max(60, "District must be at most 60 characters").default(""),
    state: z.enum(INDIAN_STATE_NAMES, { error: "Choose a state or union territory" }),
    pin: plainText().trim().regex(PIN_PATTERN, "Enter the 6-digit PIN code"),
  })
  .strict()
  .superRefine((address, context) => {
    if (PIN_PATTERN.test(address.pin) && !pinMatchesState(address.pin, address.state)) {
      context.addIssue({
        code: "custom",
        path: ["pin"],
        message: `This PIN code is not in ${address.state}`,
      });
    }
  });

export type AddressInput = z.input<typeof addressInputSchema>;
export type Address = z.output<typeof addressInputSchema>;

export type SavedAddress = Address & { id: string };
