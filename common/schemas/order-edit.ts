import { z } from "zod";
import type { OrderStatus } from "../order-lifecycle.ts";
import { addressInputSchema } from "./address.ts";
import { plainText } from "./text.ts";

/**
 * An order's address and items can be corrected until it is packed (docs/decisions/061): after that the
 * parcel is made up, and a change would not reach it. An online order still waiting for payment is the
 * shopper's to finish or abandon, so it is not edited either.
 */
export const EDITABLE_STATUSES = ["placed", "confirmed"] as const satisfies readonly OrderStatus[];
export const orderEditable = (status: OrderStatus) =>
  (EDITABLE_STATUSES as readonly string[]).includes(status);

/** Staff correct the delivery address: checked exactly as checkout checks it. */
export const editOrderAddressSchema = addressInputSchema;

/** The most units of one item an edit may set: an order is a household's, not a wholesaler's. */
export const EDIT_MAX_QUANTITY = 20;

/** The order's items as they should be: every line, each with its new quantity (a line left out is removed). */
export const editOrderItemsSchema = z
  .object({
    lines: z
      .array(
        z
          .object({
            itemId: plainText().trim().min(1).max(80),
            kind: z.enum(["product", "combo"]),
            quantity: z
              .number()
              .int("must be a whole number")
              .min(1, "must be at least 1")
              .max(EDIT_MAX_QUANTITY, `must be at most ${EDIT_MAX_QUANTITY}`),
          })
          .strict(),
      )
      .min(1, "an order keeps at least one item: cancel it instead")
      .max(30),
  })
  .strict()
  .refine((body) => new Set(body.lines.map((line) => line.itemId)).size === body.lines.length, {
    message: "each item may appear once",
    path: ["lines"],
  });
export type EditOrderItems = z.infer<typeof editOrderItemsSchema>;

/** What an edit came to, for the staff member who made it. */
export type OrderEditResult = {
  changed: boolean;
  /** "Delivery address changed: … → …", as the history records it. */
  summary: string;
  /** Said besides: a discount code that no longer applies, a refund made for a lower total. */
  notes: string[];
};
