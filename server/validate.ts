import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { idempotencyKeySchema } from "../common/schemas/orders.ts";
import { httpError } from "./errors.ts";

/**
 * zod validation for a request part; failures become a 400 naming each field,
 * e.g. "minPrice: must be 0 or more". Bodies are .strict() schemas, so an unknown
 * field (a price, a role) is refused rather than ignored.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (result.success) return;
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : [];
      // A nested unknown key is named by its path ("lines.0.colour"), so the client can find it.
      for (const key of unknownKeys) fields[[...issue.path, key].join(".")] = "is not accepted here";
      if (unknownKeys.length === 0) {
        const field = issue.path.join(".") || target;
        fields[field] ??= issue.message;
      }
    }
    const message = Object.entries(fields)
      .map(([field, problem]) => `${field}: ${problem}`)
      .join("; ");
    throw httpError(400, "invalid_request", message, fields);
  });
}

/**
 * A cart change's Idempotency-Key, if it sent one (the web app does, one per tap): a change sent again with it
 * after its answer was lost is not made twice (docs/decisions/074). Without one, each request acts, as before.
 */
export function optionalIdempotencyKey(c: Context): string | null {
  const header = c.req.header("Idempotency-Key");
  if (header === undefined) return null;
  const key = idempotencyKeySchema.safeParse(header);
  if (!key.success) {
    throw httpError(
      400,
      "invalid_idempotency_key",
      key.error.issues[0]?.message ?? "Idempotency-Key is not valid",
    );
  }
  return key.data;
}
