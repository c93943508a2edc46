import { z } from "zod";
import { FSSAI_PATTERN, GST_STATE_CODES, gstinProblem } from "../gstin.ts";
import { INDIAN_STATE_NAMES, type IndianState, PIN_PATTERN, pinMatchesState } from "../india.ts";
import { plainText } from "./text.ts";

/** The registered address, with the GST state code an invoice names beside the state. */
export type ShopAddress = {
  line1: string;
  line2: string;
  city: string;
  pin: string;
  state: IndianState;
  stateCode: string;
};

/**
 * The seller's details India's e-commerce and GST rules ask a shop to show and print (one row, kept by the
 * owner at /admin/shop). The name, phone and e-mail start as SHOP_NAME, SHOP_PHONE and SHOP_EMAIL; what has
 * no environment value (the address, GSTIN, FSSAI licence, the grievance officer's name) is null until the
 * owner enters it, never made up (docs/decisions/036).
 */
export type ShopDetails = {
  legalName: string;
  address: ShopAddress | null;
  phone: string;
  email: string;
  /** Null for a seller not registered for GST. */
  gstin: string | null;
  fssaiLicence: string | null;
  grievanceOfficer: { name: string | null; email: string };
  /** When the owner last saved them; null while the environment's values stand. */
  updatedAt: string | null;
};

const required = (label: string, max: number) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** Empty means "none": the GSTIN, FSSAI licence or grievance officer's name of a shop that has not got one. */
const optional = (max: number) =>
  plainText()
    .trim()
    .max(max, `Must be at most ${max} characters.`)
    .nullable()
    .transform((value) => (value ? value : null));

const email = (label: string) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .toLowerCase()
    .pipe(z.email(`${label} must be an e-mail address, like care@example.in.`).max(254));

/**
 * A helpline as shoppers dial it: a mobile, a landline with its STD code or a toll-free number, written with
 * spaces or dashes as the owner likes; what counts is 8 to 15 digits after an optional +.
 */
const phone = required("Phone", 30).refine((value) => {
  const digits = value.replace(/[\s\-().]/g, "");
  return /^\+?[0-9]{8,15}$/.test(digits);
}, "Phone must be a number shoppers can dial, e.g. +91 98765 43210 or 1800 123 4567.");

/** The owner's whole form, sent as one: every field of the row. */
export const updateShopDetailsSchema = z
  .object({
    legalName: required("Legal name", 120),
    addressLine1: required("Address", 120),
    addressLine2: plainText()
      .trim()
      .max(120, "The second address line must be at most 120 characters.")
      .default(""),
    city: required("City", 60),
    pin: plainText({ error: "PIN code is required." })
      .trim()
      .regex(PIN_PATTERN, "PIN code must be 6 digits, not starting with 0."),
    state: z.enum(INDIAN_STATE_NAMES, { error: "Choose the state or union territory of the address." }),
    phone,
    email: email("E-mail"),
    gstin: optional(15).transform((value) => value?.toUpperCase() ?? null),
    fssaiLicence: optional(14).refine(
      (value) => value === null || FSSAI_PATTERN.test(value),
      "An FSSAI licence number is 14 digits.",
    ),
    // The Consumer Protection (E-Commerce) Rules ask for the officer's name on the shop's pages; no tax
    // invoice needs it, so a shop can save its GSTIN and address (and issue invoices) before it has one.
    grievanceOfficerName: optional(80),
    grievanceOfficerEmail: email("The grievance officer's e-mail"),
  })
  .strict()
  .superRefine((value, context) => {
    if (PIN_PATTERN.test(value.pin) && !pinMatchesState(value.pin, value.state)) {
      context.addIssue({ code: "custom", path: ["pin"], message: `This PIN code is not in ${value.state}.` });
    }
    const problem = value.gstin ? gstinProblem(value.gstin, value.state) : undefined;
    if (problem) context.addIssue({ code: "custom", path: ["gstin"], message: problem });
  });

export type UpdateShopDetails = z.input<typeof updateShopDetailsSchema>;
export type ShopDetailsInput = z.output<typeof updateShopDetailsSchema>;

export const stateCodeOf = (state: IndianState) => GST_STATE_CODES[state];

/**
 * The promo banner at the top of every page: "<headline> <details> Use code <code> at checkout.", and on
 * its minimised button "<shortLabel> - Click to expand". The spec's GLOW20 offer is the default.
 */
export type PromoBanner = {
  visible: boolean;
  headline: string;
  details: string;
  /** A discount code the banner names; null for an offer without one. */
  code: string | null;
  shortLabel: string;
};

export const updatePromoBannerSchema = z
  .object({
    visible: z.boolean({ error: "Shown must be true or false." }),
    headline: required("Headline", 80),
    details: plainText().trim().max(120, "The rest of the text must be at most 120 characters.").default(""),
    code: optional(20)
      .refine(
        (value) => value === null || /^[A-Za-z0-9]{3,20}$/.test(value),
        "A code is 3 to 20 letters or digits.",
      )
      .transform((value) => value?.toUpperCase() ?? null),
    shortLabel: required("Minimised label", 24),
  })
  .strict();

export type UpdatePromoBanner = z.input<typeof updatePromoBannerSchema>;
export type PromoBannerInput = z.output<typeof updatePromoBannerSchema>;
