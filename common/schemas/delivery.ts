import { z } from "zod";
import { DELIVERY_RULE_KINDS, type DeliveryRuleKind, PIN_FORMAT_MESSAGE } from "../delivery-check.ts";
import { PIN_PATTERN } from "../india.ts";
import { plainText } from "./text.ts";

const pin = plainText().trim().regex(PIN_PATTERN, PIN_FORMAT_MESSAGE);

export const pinParamSchema = z.object({ pin }).strict();

/**
 * "Check delivery": the PIN and, for the cash-on-delivery limit, the item (a product or combo page) or the
 * order's total as the checkout priced it (the order itself is checked again when it is placed).
 */
export const deliveryCheckQuerySchema = z
  .object({
    pin,
    product: plainText().trim().min(1).max(100).optional(),
    combo: plainText().trim().min(1).max(100).optional(),
    orderPaise: z.coerce
      .number({ error: "must be a whole number of paise" })
      .int("must be a whole number of paise")
      .min(0, "must be a whole number of paise")
      .max(100_000_000, "is too large")
      .optional(),
  })
  .strict()
  .refine(
    (query) => [query.product, query.combo, query.orderPaise].filter((x) => x !== undefined).length <= 1,
    {
      path: ["combo"],
      message: "give a product, a combo or an order total, not more than one",
    },
  );

/** A PIN code or the first 1-5 digits of a range of them. */
export const PREFIX_PATTERN = /^[1-9][0-9]{0,5}$/;

export const deliveryRuleParamSchema = z
  .object({ prefix: z.string().regex(PREFIX_PATTERN, "must be a PIN code or its first 1-5 digits") })
  .strict();

export const deliveryRuleInputSchema = z
  .object({
    rule: z.enum(DELIVERY_RULE_KINDS, { error: "must be not_served or served" }),
    note: plainText().trim().max(200, "must be at most 200 characters").default(""),
  })
  .strict();
export type DeliveryRuleInput = z.input<typeof deliveryRuleInputSchema>;

export const deliveryRuleListQuerySchema = z
  .object({
    after: z.string().regex(PREFIX_PATTERN, "is not a prefix from this list").optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();

export type AdminDeliveryRule = {
  prefix: string;
  rule: DeliveryRuleKind;
  note: string;
  updatedAt: string;
};

/** Ordered by prefix; `next` is the prefix to pass as `after` for the following page. */
export type AdminDeliveryRulePage = { items: AdminDeliveryRule[]; next: string | null };
