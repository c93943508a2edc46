import { z } from "zod";
import { indianDate, startOfIndianDay } from "../india-time.ts";
import { addressInputSchema } from "./address.ts";
import { orderNumberSchema } from "./orders.ts";
import { plainText } from "./text.ts";

/** Request bodies and queries of the shipping endpoints (docs/decisions/052). */

const courierIdSchema = z.string().regex(/^\d{1,12}$/, "is not a courier id");
const ruleSchema = z.enum(["cheapest", "fastest"]);
/** What staff weighed the packed parcel at, standing for the packing rule's weight (docs/decisions/086). */
const weighedGrams = z
  .number({ error: "The parcel's weight must be a number of grams." })
  .int("The parcel's weight must be whole grams.")
  .min(1, "The parcel's weight must be more than 0 g.")
  .max(30_000, "The parcel's weight must be at most 30,000 g.");
export const bookSchema = z
  .object({
    courierId: courierIdSchema.optional(),
    rule: ruleSchema.optional(),
    weighedGrams: weighedGrams.optional(),
  })
  .strict()
  .refine((body) => Boolean(body.courierId) !== Boolean(body.rule), {
    message: "give either courierId or rule",
    path: ["courierId"],
  });
export const couriersQuery = z
  .object({ weighedGrams: z.coerce.number().pipe(weighedGrams).optional() })
  .strict();
export const bulkSchema = z
  .object({
    numbers: z.array(orderNumberSchema.shape.number).min(1).max(50),
    rule: ruleSchema,
  })
  .strict();
export const labelsQuery = z.object({
  orders: z
    .string()
    .transform((text) => text.split(",").filter(Boolean))
    .pipe(z.array(orderNumberSchema.shape.number).min(1).max(50)),
});
/** A day within the next week, as YYYY-MM-DD. */
const attemptDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "is not a date (YYYY-MM-DD)")
  .refine((text) => {
    const day = startOfIndianDay(text).getTime();
    const today = startOfIndianDay(indianDate(new Date())).getTime();
    return day >= today && day <= today + 7 * 86_400_000;
  }, "must be today or within the next 7 days");
export const ownerNdrSchema = z.discriminatedUnion("action", [
  z
    .object({
      action: z.literal("reattempt"),
      date: attemptDate.optional(),
      comments: plainText().max(200).optional(),
    })
    .strict(),
  z.object({ action: z.literal("return"), comments: plainText().max(200).optional() }).strict(),
]);
/**
 * A shopper's answer to a failed delivery, from an account or a guest's link: the day, and the address or
 * mobile only when it was wrong. The mobile is read as the address form reads it ("98765 43210" is fine).
 */
export const shopperAttemptSchema = z
  .object({
    date: attemptDate,
    line1: plainText().trim().min(5, "Give the house, flat or building in full").max(120).optional(),
    line2: plainText().trim().max(120).optional(),
    phone: addressInputSchema.shape.phone.optional(),
  })
  .strict()
  .refine((body) => !body.line2 || body.line1, {
    message: "Give the corrected house, flat or building with the landmark",
    path: ["line1"],
  });
export type ShopperAttempt = z.infer<typeof shopperAttemptSchema>;

export const parcelItemParam = z
  .object({ kind: z.enum(["product", "combo"]), id: z.string().regex(/^[a-z0-9-]{1,80}$/, "is not an id") })
  .strict();
const measure = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be a whole number.`)
    .min(1, `${label} must be more than 0.`)
    .max(max, `${label} must be at most ${max}.`)
    .nullable();
/** The packed weight (grams) and box (cm) of one product or combo; null clears a value. */
export const parcelSizeSchema = z
  .object({
    weightGrams: measure("Weight", 30_000),
    lengthCm: measure("Length", 150),
    breadthCm: measure("Breadth", 150),
    heightCm: measure("Height", 150),
  })
  .strict();
/** The Weights page's one save: the shop's default parcel and every product's and combo's weight and box. */
export const weightsSchema = z
  .object({
    defaultItem: parcelSizeSchema,
    items: z
      .array(
        parcelSizeSchema.extend({ kind: parcelItemParam.shape.kind, id: parcelItemParam.shape.id }).strict(),
      )
      .max(2_000),
  })
  .strict();
