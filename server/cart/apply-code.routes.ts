import { Hono } from "hono";
import {
  appliedMessage,
  checkDiscountCode,
  DISCOUNT_LIMIT_MESSAGES,
  normalizeCode,
} from "../../common/discount.ts";
import { applyDiscountSchema } from "../../common/schemas/cart.ts";
import { currentUser, requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { findDiscountCode } from "../discounts/discounts.data.ts";
import { httpError } from "../errors.ts";
import { optionalIdempotencyKey, validate } from "../validate.ts";
import { applyCodeToCart, priceCart, priceEntries, removeCodeFromCart } from "./cart.data.ts";

/** The spec's refusals keep its exact words; the status and code say which one it was. */
function refuse({ message, usedUp }: { message: string; usedUp?: true }) {
  if (usedUp) return httpError(409, "discount_already_used", message);
  switch (message) {
    case DISCOUNT_LIMIT_MESSAGES.limitReached:
      return httpError(409, "discount_limit_reached", message);
    case DISCOUNT_LIMIT_MESSAGES.expired:
      return httpError(422, "discount_expired", message);
    case DISCOUNT_LIMIT_MESSAGES.notStarted:
      return httpError(422, "discount_not_started", message);
    default:
      return httpError(422, "invalid_discount_code", message);
  }
}

export function discountRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .post("/apply", validate("json", applyDiscountSchema), async (c) => {
      const body = c.req.valid("json");
      const user = await currentUser(deps, c);
      if (user) {
        // Signed in, the server holds both the cart and the used codes: the browser's copies are not asked for.
        for (const field of ["items", "usedCodes"] as const) {
          if (body[field] !== undefined) {
            const problem = "is not accepted when signed in: the saved cart and used codes are used";
            throw httpError(400, "invalid_request", `${field}: ${problem}`, { [field]: problem });
          }
        }
        const key = optionalIdempotencyKey(c);
        const result = await applyCodeToCart(db, user.id, body.code, key);
        if (!result.ok && "keyReused" in result) {
          throw httpError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different discount code or cart change.",
          );
        }
        if (!result.ok) throw refuse(result);
        if (key !== null) c.header("Idempotent-Replayed", String(result.repeated === true));
        return c.json({
          message: appliedMessage(result.code.description),
          cart: await priceCart(db, user.id),
        });
      }

      // A guest: validate and price the lines sent; the used list lives in the guest's session store.
      if (body.items === undefined) {
        const problem = "is required when signed out";
        throw httpError(400, "invalid_request", `items: ${problem}`, { items: problem });
      }
      const stored = await findDiscountCode(db, normalizeCode(body.code));
      const check = checkDiscountCode(body.code, stored ? [stored] : [], body.usedCodes ?? []);
      if (!check.ok) throw refuse(check);
      return c.json({
        message: appliedMessage(check.code.description),
        cart: await priceEntries(db, body.items, check.code.code),
      });
    })
    .delete("/applied", async (c) => {
      const user = await requireUser(deps, c);
      await removeCodeFromCart(db, user.id);
      return c.json(await priceCart(db, user.id));
    });
}
