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
