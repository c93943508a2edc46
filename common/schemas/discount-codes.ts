import { z } from "zod";
import { boundedText, plainText } from "./text.ts";

/** Paise, as a whole number of rupees: the spec rounds every discount to the rupee. */
const wholeRupees = (label: string) =>
  z
    .number({ error: `${label} must be a number of paise.` })
    .int(`${label} must be a whole number of paise.`)
    .refine((paise) => paise % 100 === 0, `${label} must be a whole number of rupees.`);

const instant = z.iso.datetime({
  offset: true,
  error: "must be a date and time with its offset, e.g. 2026-12-01T10:00:00+05:30",
});

const fields = {
  description: boundedText("Description", 3, 120),
  percent: z
    .number({ error: "Percent must be a number." })
    .int("Percent must be a whole number.")
    .min(1, "Percent must be 1 to 90.")
    .max(90, "Percent must be 1 to 90."),
  amountOffPaise: wholeRupees("The amount off")
    .refine((paise) => paise > 0, "The amount off must be more than ₹0.")
    .refine((paise) => paise <= 10_000_000, "The amount off must be ₹1,00,000 or less."),
  minAmountPaise: wholeRupees("The minimum order")
    .refine((paise) => paise >= 0, "The minimum order cannot be negative.")
    .refine((paise) => paise <= 100_000_000, "The minimum order must be ₹10,00,000 or less."),
  startsAt: instant.nullable(),
  endsAt: instant.nullable(),
  maxUses: z
    .number({ error: "The total number of uses must be a number." })
    .int("The total number of uses must be a whole number.")
    .min(1, "The total number of uses must be 1 or more.")
    .max(10_000_000, "The total number of uses must be 1,00,00,000 or less.")
    .nullable(),
  usesPerCustomer: z
    .number({ error: "Uses per customer must be a number." })
    .int("Uses per customer must be a whole number.")
    .min(1, "Uses per customer must be 1 or more.")
    .max(1000, "Uses per customer must be 1,000 or less.")
    .nullable(),
  active: z.boolean({ error: "Active must be true or false." }),
};

type Checked = {
  percent?: number;
  amountOffPaise?: number;
  startsAt?: string | null;
  endsAt?: string | null;
};

/** Rules across fields, each reported on the field a person would correct. */
function crossChecks(value: Checked, context: z.RefinementCtx, kindRequired: boolean) {
  const hasPercent = value.percent !== undefined;
  const hasAmount = value.amountOffPaise !== undefined;
  if (hasPercent && hasAmount) {
    context.addIssue({
      code: "custom",
      path: ["amountOffPaise"],
      message: "Give a percent or an amount off, not both.",
    });
  } else if (kindRequired && !hasPercent && !hasAmount) {
    context.addIssue({
      code: "custom",
      path: ["percent"],
      message: "Give a percent (1-90) or an amount off.",
    });
  }
  if (value.startsAt && value.endsAt && Date.parse(value.endsAt) <= Date.parse(value.startsAt)) {
    context.addIssue({ code: "custom", path: ["endsAt"], message: "The end must be after the start." });
  }
}

/** The code in an address (/api/admin/discount-codes/:code); looked up as it is stored, upper-cased. */
export const discountCodeParamSchema = z.strictObject({ code: plainText().max(40) });

/** A new code. Codes are upper-cased, as the spec's are matched. */
export const createDiscountCodeSchema = z
  .object({
    code: z
      .string({ error: "Code is required." })
      .trim()
      .regex(/^[A-Za-z0-9]{3,20}$/, "Code must be 3 to 20 letters or digits.")
      .transform((code) => code.toUpperCase()),
    description: fields.description,
    percent: fields.percent.optional(),
    amountOffPaise: fields.amountOffPaise.optional(),
    minAmountPaise: fields.minAmountPaise.default(0),
    startsAt: fields.startsAt.default(null),
    endsAt: fields.endsAt.default(null),
    maxUses: fields.maxUses.default(null),
    usesPerCustomer: fields.usesPerCustomer.default(1),
    active: fields.active.default(true),
  })
  .strict()
  .superRefine((value, context) => crossChecks(value, context, true));

/** A change to a code: any of its fields but the code itself; the window is checked with what is stored. */
export const updateDiscountCodeSchema = z
  .object({
    description: fields.description.optional(),
    percent: fields.percent.optional(),
    amountOffPaise: fields.amountOffPaise.optional(),
    minAmountPaise: fields.minAmountPaise.optional(),
    startsAt: fields.startsAt.optional(),
    endsAt: fields.endsAt.optional(),
    maxUses: fields.maxUses.optional(),
    usesPerCustomer: fields.usesPerCustomer.optional(),
    active: fields.active.optional(),
  })
  .strict()
  .superRefine((value, context) => crossChecks(value, context, false));

export const discountCodeListQuerySchema = z
  .object({
    cursor: plainText().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();

export type CreateDiscountCode = z.infer<typeof createDiscountCodeSchema>;
export type UpdateDiscountCode = z.infer<typeof updateDiscountCodeSchema>;

/** A code as the admin sees it; instants are ISO strings. */
export type AdminDiscountCode = {
  code: string;
  description: string;
  percent: number;
  amountOffPaise: number;
  minAmountPaise: number;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  timesUsed: number;
  /** Uses one customer may make; null for no limit. */
  usesPerCustomer: number | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
};

export type AdminDiscountCodePage = { items: AdminDiscountCode[]; nextCursor: string | null };
