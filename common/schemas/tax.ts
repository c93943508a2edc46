import { z } from "zod";
import { HSN_PATTERN } from "../gst.ts";

/** A GST rate as the owner types it, in percent with at most two decimals (18, 5, 0.25). */
const gstRate = z
  .number({ error: "must be a rate in percent, like 18" })
  .min(0, "must be 0 or more")
  .max(100, "must be at most 100")
  .refine(
    (value) =>
      Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
    {
      message: "can have at most two decimals",
    },
  );

export const updateProductTaxSchema = z
  .object({
    hsnCode: z.string().trim().regex(HSN_PATTERN, "an HSN code is 4, 6 or 8 digits"),
    gstRate,
  })
  .strict();
export type UpdateProductTax = z.infer<typeof updateProductTaxSchema>;

export const addGstRateSchema = z.object({ gstRate }).strict();

export const productSlugParamSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "is not a product"),
});
export const gstRateParamSchema = z.object({ rate: z.coerce.number().pipe(gstRate) });

export type ProductTaxView = {
  slug: string;
  name: string;
  active: boolean;
  hsnCode: string | null;
  /** Percent. */
  gstRate: number;
};

export type TaxSettings = { rates: number[]; products: ProductTaxView[] };

export const rateToBp = (percent: number) => Math.round(percent * 100);
export const bpToRate = (bp: number) => bp / 100;

/**
 * The files of a month's GSTR-1 (docs/decisions/044): B2C (small) by place of supply and rate, B2C (large)
 * invoice by invoice and the credit notes against them, nil-rated supplies, the HSN summary, the documents issued (table 13) and every invoice and credit note one by one.
 */
export const GSTR1_SECTIONS = ["b2cs", "b2cl", "cdnur", "exempt", "hsn", "docs", "documents"] as const;
export type Gstr1Section = (typeof GSTR1_SECTIONS)[number];

/** GST began in July 2017: no return is filed for a month before it. */
const MONTH_PATTERN = /^(20[1-9][0-9])-(0[1-9]|1[0-2])$/;

export const gstr1QuerySchema = z
  .object({
    month: z
      .string()
      .regex(MONTH_PATTERN, "must be a month like 2026-11")
      .refine((month) => month >= "2017-07", "must be July 2017 or later"),
    section: z.enum(GSTR1_SECTIONS, { error: `must be one of ${GSTR1_SECTIONS.join(", ")}` }),
  })
  .strict();
export type Gstr1Query = z.infer<typeof gstr1QuerySchema>;
