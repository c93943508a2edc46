import { z } from "zod";
import { CART_ITEM_KINDS, MAX_CART_LINES, MAX_QUANTITY } from "../cart.ts";
import { slugSchema } from "./catalogue.ts";
import { plainText } from "./text.ts";

/**
 * Request bodies of the cart and discount API. All strict: a body carrying a price, an amount or a
 * total is refused with a 400, because the server alone decides those.
 */

export const cartItemKindSchema = z.enum(CART_ITEM_KINDS);

const quantity = z
  .number()
  .int("must be a whole number")
  .min(1, "must be 1 or more")
  .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`);

export const cartEntrySchema = z.strictObject({ id: slugSchema, kind: cartItemKindSchema, quantity });

export const cartEntriesSchema = z
  .array(cartEntrySchema)
  .max(MAX_CART_LINES, `must hold at most ${MAX_CART_LINES} items`)
  .refine((items) => new Set(items.map((item) => item.id)).size === items.length, "must list each item once");

/** A code as typed: any case, surrounding spaces allowed; an unknown one earns the spec's message, not a 400. */
export const discountCodeInputSchema = plainText()
  .trim()
  .min(1, "enter a code")
  .max(40, "must be at most 40 characters");

const usedCodes = z.array(discountCodeInputSchema).max(50, "must hold at most 50 codes");

/** Adds 1 by default (the spec's rule); the product page's quantity selector may add several at once. */
export const addCartItemSchema = z.strictObject({
  id: slugSchema,
  kind: cartItemKindSchema,
  quantity: quantity.optional(),
});

export const setQuantitySchema = z.strictObject({
  quantity: z
    .number()
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`),
});

export const cartItemParamSchema = z.strictObject({ id: slugSchema });

/** A guest's cart, priced by the server from ids and quantities. */
export const quoteCartSchema = z.strictObject({
  items: cartEntriesSchema,
  discountCode: discountCodeInputSchema.nullable().optional(),
});

/**
 * On sign-in: the guest's cart and the codes the guest applied and used, folded into the account. The
 * browser names each merge, and sends the same id again when it never heard how the last try went.
 */
export const mergeCartSchema = z.strictObject({
  mergeId: z.uuid(),
  items: cartEntriesSchema,
  appliedCode: discountCodeInputSchema.nullable().optional(),
  usedCodes: usedCodes.optional(),
});

/**
 * Signed in, only the code: the saved cart is priced and the use is recorded. Signed out, the guest's
 * lines and used codes come along, and nothing is recorded.
 */
export const applyDiscountSchema = z.strictObject({
  code: discountCodeInputSchema,
  items: cartEntriesSchema.optional(),
  usedCodes: usedCodes.optional(),
});

export type MergeCartRequest = z.infer<typeof mergeCartSchema>;
