import { Hono } from "hono";
import {
  addCartItemSchema,
  cartItemParamSchema,
  mergeCartSchema,
  quoteCartSchema,
  setQuantitySchema,
} from "../../common/schemas/cart.ts";
import { currentUser, requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import {
  addCartItem,
  clearCart,
  getCartVersion,
  mergeIntoCart,
  priceCart,
  priceEntries,
  removeCartItem,
  setCartItemQuantity,
} from "./cart.data.ts";
import { resolveLines } from "./priced-cart.ts";

/** The signed-in shopper's cart (one per account), changed line by line; and pricing for guests' carts. */
export function cartRoutes(deps: Deps) {
  const { db } = deps;
  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        return c.json(await priceCart(db, user.id));
      })
      // Polled every few seconds by every open tab: who is signed in, and the cart's change counter.
      .get("/version", async (c) => {
        const user = await currentUser(deps, c);
        return c.json({ userId: user?.id ?? null, version: user ? await getCartVersion(db, user.id) : 0 });
      })
      .post("/items", validate("json", addCartItemSchema), async (c) => {
        const user = await requireUser(deps, c);
        const { quantity = 1, ...item } = c.req.valid("json");
        const [line] = await resolveLines(db, [{ ...item, quantity, addedPricePaise: null }]);
        if (!line || line.unitPricePaise === null || line.availability === "not_sold") {
          throw notFound("That item is not sold in the shop.");
        }
        if (line.availability === "out_of_stock") {
          throw httpError(409, "out_of_stock", `${line.name} is out of stock.`);
        }
        const added = await addCartItem(db, user.id, {
          ...item,
          quantity,
          unitPricePaise: line.unitPricePaise,
        });
        if (!added) {
          throw httpError(409, "quantity_limit", `You already have the most we allow of ${line.name} (99).`);
        }
        return c.json(await priceCart(db, user.id));
      })
      .put(
        "/items/:id",
        validate("param", cartItemParamSchema),
        validate("json", setQuantitySchema),
        async (c) => {
          const user = await requireUser(deps, c);
          const { id } = c.req.valid("param");
          const changed = await setCartItemQuantity(db, user.id, id, c.req.valid("json").quantity);
          if (!changed) throw notFound("That item is no longer in your cart.");
          return c.json(await priceCart(db, user.id));
        },
      )
      // Removing what is already gone is not an error: another device may have removed it first.
      .delete("/items/:id", validate("param", cartItemParamSchema), async (c) => {
        const user = await requireUser(deps, c);
        await removeCartItem(db, user.id, c.req.valid("param").id);
        return c.json(await priceCart(db, user.id));
      })
      .delete("/items", async (c) => {
        const user = await requireUser(deps, c);
        await clearCart(db, user.id);
        return c.json(await priceCart(db, user.id));
      })
      .post("/merge", validate("json", mergeCartSchema), async (c) => {
        const user = await requireUser(deps, c);
        const { discountMessage } = await mergeIntoCart(db, user.id, c.req.valid("json"));
        return c.json({ cart: await priceCart(db, user.id), discountMessage });
      })
      .post("/quote", validate("json", quoteCartSchema), async (c) => {
        const { items, discountCode } = c.req.valid("json");
        return c.json(await priceEntries(db, items, discountCode));
      })
  );
}
