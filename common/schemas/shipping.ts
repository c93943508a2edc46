import { z } from "zod";
import { indianDate, startOfIndianDay } from "../india-time.ts";
import { orderNumberSchema } from "./orders.ts";
import { plainText } from "./text.ts";

/** Request bodies and queries of the shipping endpoints (docs/decisions/052). */

const courierIdSchema = z.string().regex(/^\d{1,12}$/, "is not a courier id");
const ruleSchema = z.enum(["cheapest", "fastest"]);
export const bookSchema = z
  .object({ courierId: courierIdSchema.optional(), rule: ruleSchema.optional() })
  .strict()
  .refine((body) => Boolean(body.courierId) !== Boolean(body.rule), {
    message: "give either courierId or rule",
    path: ["courierId"],
  });
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
export const shopperAttemptSchema = z
  .object({
    date: attemptDate,
    line1: plainText().min(5).max(120).optional(),
    line2: plainText().max(120).optional(),
    phone: z
      .string()
      .regex(/^(\+91)?[6-9]\d{9}$/, "is not an Indian mobile number")
      .optional(),
  })
  .strict();

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
