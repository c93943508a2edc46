import { z } from "zod";
import { CATEGORIES, DEFAULT_SORT, PAGE_SIZE, SORT_OPTIONS, SUBCATEGORIES } from "../catalogue.ts";
import { pageSchema } from "./numbers.ts";
import { plainText } from "./text.ts";

const rupees = z.coerce.number().min(0, "must be 0 or more").max(1_000_000, "is too large");

export const productQuerySchema = z
  .object({
    q: plainText().max(100, "must be at most 100 characters").optional(),
    category: z.enum(CATEGORIES).optional(),
    subcategory: z.enum(SUBCATEGORIES as [string, ...string[]]).optional(),
    minPrice: rupees.optional(),
    maxPrice: rupees.optional(),
    sort: z.enum(SORT_OPTIONS).default(DEFAULT_SORT),
    page: pageSchema,
    pageSize: z.coerce
      .number()
      .int("must be a whole number")
      .min(1, "must be 1 or more")
      .max(100, "must be at most 100")
      .default(PAGE_SIZE),
  })
  .strict()
  .refine(
    (query) =>
      query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice,
    {
      message: "must not be above maxPrice",
      path: ["minPrice"],
    },
  );

export type ProductQuery = z.infer<typeof productQuerySchema>;

export const slugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "is not a valid id")
  .max(80);
