import { z } from "zod";
import { FREE_SHIPPING_BASES, type ShippingRule } from "../cart.ts";
import { type ProductImage, UPLOADED_IMAGE_KEY } from "../catalogue.ts";
import { checkBrandColour } from "../contrast.ts";
import { INT4_MAX } from "./numbers.ts";
import { plainText } from "./text.ts";

/** The shop's settings as the owner keeps them at /admin/settings (docs/decisions/068). */
export type ShopSettings = {
  shopName: string;
  /** #rrggbb, or null for the shop's own green. */
  brandColour: string | null;
  logo: (ProductImage & { key: string }) | null;
  shipping: ShippingRule;
  /** When the owner last saved; null while the environment's first values stand. */
  updatedAt: string | null;
};

const rupeesPaise = (label: string) =>
  z
    .number({ error: `${label} must be a number of paise.` })
    .int(`${label} must be a whole number of paise.`)
    .min(0, `${label} cannot be below ₹0.`)
    .max(INT4_MAX, `${label} is too large.`);

export const updateShopSettingsSchema = z
  .object({
    shopName: plainText({ error: "Shop name is required." })
      .trim()
      .min(1, "Shop name is required.")
      .max(60, "Shop name must be at most 60 characters."),
    brandColour: z
      .string({ error: "Brand colour must be a colour like #166534." })
      .regex(/^#[0-9a-fA-F]{6}$/, "Brand colour must be a colour like #166534.")
      .transform((value) => value.toLowerCase())
      .superRefine((value, context) => {
        const { problem } = checkBrandColour(value);
        if (problem) context.addIssue({ code: "custom", message: problem });
      })
      .nullable(),
    logo: z
      .string({ error: "Logo must be an uploaded image." })
      .regex(UPLOADED_IMAGE_KEY, "Logo must be an uploaded image.")
      .nullable(),
    shippingFeePaise: rupeesPaise("Shipping fee"),
    freeShippingMinPaise: rupeesPaise("Free-shipping threshold"),
    freeShippingBasis: z.enum(FREE_SHIPPING_BASES, {
      error: "Free shipping is counted after_discount or before_discount.",
    }),
  })
  .strict();

export type UpdateShopSettings = z.input<typeof updateShopSettingsSchema>;
export type ShopSettingsInput = z.output<typeof updateShopSettingsSchema>;

/** The owner's switch for texting guests their parcel's news (Settings; docs/decisions/093). */
export const guestDeliverySmsSchema = z
  .object({ on: z.boolean({ error: "on must be true or false." }) })
  .strict();
export type GuestDeliverySms = z.infer<typeof guestDeliverySmsSchema>;
