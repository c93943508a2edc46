import { z } from "zod";
import {
  BADGES,
  CATEGORIES,
  CATEGORY_FILTERS,
  type Category,
  MENUS,
  type ProductImage,
} from "../catalogue.ts";
import { slugSchema } from "./catalogue.ts";
import { INT4_MAX } from "./numbers.ts";
import { plainText } from "./text.ts";

/** The largest photo the editor takes, before it is made into the shop's sizes. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_PRODUCT_IMAGES = 3;

/** One line of text a person typed: trimmed, required, at most `max` characters. */
const line = (label: string, max: number) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** Paise, for a price in rupees and paise as the shop shows it: whole, above zero, within a column. */
const paise = (label: string) =>
  z
    .number({ error: `${label} must be a number of paise.` })
    .int(`${label} must be a whole number of paise.`)
    .min(1, `${label} must be more than ₹0.`)
    .max(INT4_MAX, `${label} is too large.`);

/** An image of the product: a key the upload gave (or one the product already shows) and its alt text. */
export const productImageInputSchema = z
  .object({
    key: plainText({ error: "Image is required." }).min(1, "Image is required.").max(120),
    alt: plainText({ error: "Alt text must be text." })
      .trim()
      .max(200, "Alt text must be at most 200 characters."),
  })
  .strict();

const productFields = {
  name: line("Name", 80),
  slug: slugSchema.min(2, "must be at least 2 characters"),
  pricePaise: paise("Price"),
  originalPricePaise: paise("Original price").nullable(),
  description: plainText({ multiline: true, error: "Description is required." })
    .trim()
    .min(10, "Description must be at least 10 characters.")
    .max(2000, "Description must be at most 2000 characters."),
  benefits: z.tuple([line("Benefit", 60), line("Benefit", 60), line("Benefit", 60)], {
    error: "Give exactly three benefits.",
  }),
  category: z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(", ")}.` }),
  subcategory: line("Subcategory", 40),
  badge: z.enum(BADGES, { error: `Badge must be one of ${BADGES.join(", ")}, or none.` }).nullable(),
  menus: z
    .array(z.enum(MENUS, { error: `Menus must be among ${MENUS.join(", ")}.` }))
    .max(MENUS.length)
    .refine((menus) => new Set(menus).size === menus.length, "Each menu only once."),
  images: z
    .array(productImageInputSchema)
    .min(1, "Add at least one image.")
    .max(MAX_PRODUCT_IMAGES, `At most ${MAX_PRODUCT_IMAGES} images.`)
    .refine(
      (images) => new Set(images.map((image) => image.key)).size === images.length,
      "Each image only once.",
    ),
  active: z.boolean({ error: "Shown must be true or false." }),
};

type Checked = {
  pricePaise: number;
  originalPricePaise: number | null;
  category: Category;
  subcategory: string;
};

/** Rules across fields, each reported on the field a person would correct. */
function crossChecks(value: Checked, context: z.RefinementCtx) {
  if (value.originalPricePaise !== null && value.originalPricePaise < value.pricePaise) {
    context.addIssue({
      code: "custom",
      path: ["originalPricePaise"],
      message: "The original price cannot be below the price.",
    });
  }
  const subcategories = CATEGORY_FILTERS[value.category].subcategories;
  if (!subcategories.includes(value.subcategory)) {
    context.addIssue({
      code: "custom",
      path: ["subcategory"],
      message: `Subcategory must be one of ${subcategories.join(", ")} for this category.`,
    });
  }
}

/** A new product: everything the catalogue shows of it. */
export const createProductSchema = z
  .object(productFields)
  .strict()
  .superRefine((value, context) => crossChecks(value, context));

/**
 * A save from the editor: the whole product as the form holds it, with the version it was opened at, so
 * a save over someone else's change is refused (409) instead of silently undoing it.
 */
export const updateProductSchema = z
  .object({
    ...productFields,
    version: z
      .number({ error: "Version is required." })
      .int("Version must be a whole number.")
      .min(1)
      .max(INT4_MAX),
  })
  .strict()
  .superRefine((value, context) => crossChecks(value, context));

export const productParamSchema = z.strictObject({ slug: slugSchema });

export const adminProductListQuerySchema = z
  .object({ q: plainText().trim().max(100, "must be at most 100 characters").optional() })
  .strict();

/** An upload: the file's bytes in base64 (the API takes JSON only; see decision 035). */
export const uploadProductImageSchema = z
  .object({
    image: z
      .string({ error: "Choose a JPEG, PNG or WebP image." })
      .min(1, "Choose a JPEG, PNG or WebP image.")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be the file's bytes in base64"),
    /** A logo keeps its transparency and its whole shape; a photo is cropped square onto white. */
    purpose: z.enum(["photo", "logo"]).default("photo"),
  })
  .strict();

export type CreateProduct = z.infer<typeof createProductSchema>;
export type UpdateProduct = z.infer<typeof updateProductSchema>;

export type AdminProductImage = ProductImage & { key: string; alt: string };

/** A product as the editor reads it: everything it edits, the version to send back, and whether it sold. */
export type AdminProduct = {
  slug: string;
  name: string;
  pricePaise: number;
  originalPricePaise: number | null;
  description: string;
  benefits: [string, string, string];
  category: Category;
  subcategory: string;
  badge: (typeof BADGES)[number] | null;
  menus: (typeof MENUS)[number][];
  images: AdminProductImage[];
  active: boolean;
  stock: number;
  version: number;
  /** Once ordered, a product can only be hidden, never deleted. */
  ordered: boolean;
  updatedAt: string;
};

export type AdminProductRow = Pick<
  AdminProduct,
  "slug" | "name" | "pricePaise" | "originalPricePaise" | "active" | "stock" | "category"
> & { image: ProductImage };

export type AdminProductList = { items: AdminProductRow[] };

export type UploadedProductImage = AdminProductImage;
