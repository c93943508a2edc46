import type { Context } from "hono";
import { idempotencyKeySchema } from "../../common/schemas/orders.ts";
import { httpError } from "../errors.ts";

/** The Idempotency-Key header every order placement needs, signed in or not. */
export function idempotencyKeyOf(c: Context): string {
  const key = idempotencyKeySchema.safeParse(c.req.header("Idempotency-Key"));
  if (!key.success) {
    const message = key.error.issues[0]?.message ?? "Idempotency-Key header is required";
    throw httpError(400, "idempotency_key_required", message);
  }
  return key.data;
}
