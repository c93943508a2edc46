import { z } from "zod";
import { UPLOADED_IMAGE_KEY } from "../catalogue.ts";
import { slugSchema } from "./catalogue.ts";
import { plainText } from "./text.ts";

/** The spec's four combo badges. */
export const COMBO_BADGES = ["Most Popular", "Best Seller", "New Launch", "Family Pack"] as const;

const text = (label: string, max: number) =>
  plainText({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const fields = {
  title: text("Title", 80),
  description: plainText({ error: "Description is required.", multiline: true })
    .trim()
    .min(10, "Description must be at least 10 characters.")
    .max(600, "Description must be at most 600 characters."),
  badge: z.enum(COMBO_BADGES, { error: `Badge must be one of: ${COMBO_BADGES.join(", ")}.` }),
  benefits: z.tuple([text("Benefit", 60), text("Benefit", 60), text("Benefit", 60)], {
    error: "Give three benefits.",
  }),
  /** 2 or 3 products: the combo card shows up to three. */
  productSlugs: z
    .array(slugSchema, { error: "Choose 2 or 3 products." })
    .min(2, "Choose 2 or 3 products.")
    .max(3, "Choose 2 or 3 products.")
    .refine((slugs) => new Set(slugs).size === slugs.length, "Choose each product once."),
  salePricePaise: z
    .number({ error: "The sale price must be a number of paise." })
    .int("The sale price must be a whole number of paise.")
    .positive("The sale price must be more than ₹0.")
    .refine((paise) => paise % 100 === 0, "The sale price must be a whole number of rupees."),
  active: z.boolean({ error: "Shown must be true or false." }),
  /** The combo's own picture: a photo uploaded through /api/admin/product-images; null for none. */
  picture: z
    .string({ error: "The picture must be one uploaded here." })
    .regex(UPLOADED_IMAGE_KEY, "The picture must be one uploaded here.")
    .nullable(),
};

/** A new combo; its original price and savings are worked out on the server from its products' prices. */
export const createComboSchema = z
  .object({
    id: slugSchema.refine((id) => id.length >= 3, "is not a valid id"),
    ...fields,
    stock: z.number().int().min(0).max(100_000).default(0),
    active: fields.active.default(true),
    picture: fields.picture.default(null),
  })
  .strict();

/** A change to a combo: any of its fields but its id and stock (which the stock page keeps). */
export const updateComboSchema = z
  .object({
    title: fields.title.optional(),
    description: fields.description.optional(),
    badge: fields.badge.optional(),
    benefits: fields.benefits.optional(),
    productSlugs: fields.productSlugs.optional(),
    salePricePaise: fields.salePricePaise.optional(),
    active: fields.active.optional(),
    picture: fields.picture.optional(),
  })
  .strict();

export const comboParamSchema = z.strictObject({ id: slugSchema });

export type CreateCombo = z.input<typeof createComboSchema>;
export type UpdateCombo = z.infer<typeof updateComboSchema>;

/** A combo as the owner sees it, hidden ones too. */
export type AdminCombo = {
  id: string;
  title: string;
  description: string;
  badge: string;
  benefits: string[];
  products: { slug: string; name: string; pricePaise: number; active: boolean }[];
  originalPricePaise: number;
  salePricePaise: number;
  savingsPaise: number;
  stock: number;
  active: boolean;
  /** The owner's own picture, or null when the card shows the products' pictures. */
  picture: { key: string; small: string } | null;
  updatedAt: string;
};
