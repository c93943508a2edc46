import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { type CartEntry, type CartItemKind, MAX_QUANTITY, type PricedCart } from "../../common/cart.ts";
import {
  codeUnavailable,
  DISCOUNT_MESSAGES,
  type DiscountCode,
  normalizeCode,
  usedUpMessage,
} from "../../common/discount.ts";
import type { MergeCartRequest } from "../../common/schemas/cart.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { cartItems, cartMerges, cartRequests, carts } from "../db/schema.ts";
import { findDiscountCode, findDiscountCodes, takeCustomerUse } from "../discounts/discounts.data.ts";
import { guestCart, loadPricedCart, mayUseReserved, resolveLines } from "./priced-cart.ts";

/** The signed-in shopper's cart, priced from the catalogue as it is now (server/cart/priced-cart.ts). */
export async function priceCart(db: DbOrTx, userId: string): Promise<PricedCart> {
  return (await loadPricedCart(db, { kind: "account", userId })).cart;
}

/** A guest's cart, sent as ids and quantities, priced the same way; nothing is stored. */
export async function priceEntries(
  db: DbOrTx,
  entries: readonly CartEntry[],
  discountCode?: string | null,
): Promise<PricedCart> {
  return (await loadPricedCart(db, guestCart(entries, discountCode))).cart;
}

/**
 * Every change to a cart goes through here first: it creates the cart row if needed and bumps its
 * version (which other devices poll), and its row lock orders concurrent changes to one cart.
 */
async function touchCart(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .insert(carts)
    .values({ userId, version: 1 })
    .onConflictDoUpdate({
      target: carts.userId,
      set: { version: sql`${carts.version} + 1`, updatedAt: sql`now()` },
    });
}

export async function getCartVersion(db: DbOrTx, userId: string): Promise<number> {
  const [cart] = await db.select({ version: carts.version }).from(carts).where(eq(carts.userId, userId));
  return cart?.version ?? 0;
}

/** Rolls the transaction back (nothing changed, the version stays) and hands back a result. */
async function inTransaction<T>(db: Db, work: (tx: DbOrTx, abort: (result: T) => never) => Promise<T>) {
  const aborted = Symbol("aborted");
  let result: T | undefined;
  try {
    return await db.transaction((tx) =>
      work(tx, (value) => {
        result = value;
        throw aborted;
      }),
    );
  } catch (error) {
    if (error === aborted) return result as T;
    throw error;
  }
}

/**
 * A cart change's Idempotency-Key recorded under the cart's row lock (taken first, by touchCart): "fresh" the
 * first time, "repeated" when the same change was already taken under it (its answer was lost and it was sent
 * again; a retry sent while the first still runs waits on the lock, then finds the key), "key_reused" when the
 * key came with another change. Only a change that committed keeps its key: a refused one rolls it back.
 */
async function claimCartRequest(
  tx: DbOrTx,
  userId: string,
  key: string,
  change: unknown[],
): Promise<"fresh" | "repeated" | "key_reused"> {
  const requestHash = createHash("sha256").update(JSON.stringify(change)).digest("hex");
  const [fresh] = await tx
    .insert(cartRequests)
    .values({ userId, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: cartRequests.key });
  if (!fresh) {
    const [earlier] = await tx
      .select({ requestHash: cartRequests.requestHash })
      .from(cartRequests)
      .where(and(eq(cartRequests.userId, userId), eq(cartRequests.key, key)));
    return earlier?.requestHash === requestHash ? "repeated" : "key_reused";
  }
  // A retry comes within minutes; a day of keys is plenty, and the shopper's own rows are the only ones read.
  await tx
    .delete(cartRequests)
    .where(and(eq(cartRequests.userId, userId), lt(cartRequests.createdAt, sql`now() - interval '1 day'`)));
  return "fresh";
}

/** What an add did: added, refused at the 99 limit, or found already done (or its key used for another add). */
export type AddOutcome = "added" | "at_limit" | "repeated" | "key_reused";

/**
 * Adds one: a new line starts at 1, an existing one gains 1, in one atomic upsert, so two devices
 * adding at the same moment both count. Changes nothing at the 99 limit. With an Idempotency-Key, an add
 * already taken under it (its answer was lost and it was sent again) adds nothing: the retry waits on the
 * cart's row lock while the first is still running, then finds its key.
 */
export function addCartItem(
  db: Db,
  userId: string,
  item: { id: string; kind: CartItemKind; quantity: number; unitPricePaise: number },
  key: string | null = null,
): Promise<AddOutcome> {
  return inTransaction<AddOutcome>(db, async (tx, abort) => {
    await touchCart(tx, userId);
    if (key !== null) {
      const claim = await claimCartRequest(tx, userId, key, [item.id, item.kind, item.quantity]);
      if (claim !== "fresh") return abort(claim);
    }
    const rows = await tx
      .insert(cartItems)
      .values({
        userId,
        itemId: item.id,
        kind: item.kind,
        quantity: item.quantity,
        addedPricePaise: item.unitPricePaise,
        // Lines keep the order they were added in, also when several are added in one statement.
        createdAt: sql`clock_timestamp()`,
      })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.itemId],
        set: {
          quantity: sql`least(${cartItems.quantity} + ${item.quantity}, ${MAX_QUANTITY})`,
          updatedAt: sql`now()`,
        },
        setWhere: sql`${cartItems.quantity} < ${MAX_QUANTITY}`,
      })
      .returning({ quantity: cartItems.quantity });
    return rows.length === 1 ? "added" : abort("at_limit");
  });
}

/** Sets a line's quantity (0 removes it). False when the line is not in the cart. */
export function setCartItemQuantity(db: Db, userId: string, itemId: string, quantity: number) {
  if (quantity === 0) return removeCartItem(db, userId, itemId);
  return inTransaction(db, async (tx, abort) => {
    await touchCart(tx, userId);
    const rows = await tx
      .update(cartItems)
      .set({ quantity })
      .where(and(eq(cartItems.userId, userId), eq(cartItems.itemId, itemId)))
      .returning({ quantity: cartItems.quantity });
    return rows.length === 1 ? true : abort(false);
  });
}

/** False when the line was not in the cart (already removed, perhaps on another device). */
export function removeCartItem(db: Db, userId: string, itemId: string): Promise<boolean> {
  return inTransaction(db, async (tx, abort) => {
    await touchCart(tx, userId);
    const rows = await tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, userId), eq(cartItems.itemId, itemId)))
      .returning({ id: cartItems.itemId });
    return rows.length === 1 ? true : abort(false);
  });
}

/**
 * Empties the cart. The applied code stays applied (its use is spent either way) unless
 * `removeDiscount` is set, as after an order has been placed with it.
 */
export async function clearCart(db: DbOrTx, userId: string, options: { removeDiscount?: boolean } = {}) {
  const clear = async (tx: DbOrTx) => {
    await touchCart(tx, userId);
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    if (options.removeDiscount)
      await tx.update(carts).set({ discountCode: null }).where(eq(carts.userId, userId));
  };
  // Inside the caller's transaction (checkout: a savepoint) or in one of its own.
  await db.transaction(clear);
}

export type DiscountApplication =
  | { ok: true; code: DiscountCode; repeated?: true }
  | { ok: false; message: string; usedUp?: true }
  | { ok: false; keyReused: true };

/**
 * Spec 5 for a signed-in shopper: an unknown or inactive code is invalid; otherwise one of the account's
 * uses of it is taken at once (the numbered primary key decides, so simultaneous attempts yield as many
 * successes as uses were left) and the code is applied. With an Idempotency-Key, an apply already taken under
 * it is answered as it was, not refused as a code already used: the use it recorded was its own.
 */
export function applyCodeToCart(
  db: Db,
  userId: string,
  entered: string,
  key: string | null = null,
): Promise<DiscountApplication> {
  return inTransaction(db, async (tx, abort) => {
    const code = await findDiscountCode(tx, normalizeCode(entered));
    if (!code?.active || !(await mayUseReserved(tx, { kind: "account", userId }, code.reservedFor ?? null))) {
      return abort({ ok: false, message: DISCOUNT_MESSAGES.invalid });
    }
    const unavailable = codeUnavailable(code, new Date());
    if (unavailable) return abort({ ok: false, message: unavailable });
    await touchCart(tx, userId);
    if (key !== null) {
      const claim = await claimCartRequest(tx, userId, key, ["discount", code.code]);
      if (claim === "repeated") return abort({ ok: true, code, repeated: true });
      if (claim === "key_reused") return abort({ ok: false, keyReused: true });
    }
    if (!(await takeCustomerUse(tx, { userId }, code.code, code.usesPerCustomer, null))) {
      return abort({ ok: false, message: usedUpMessage(code.usesPerCustomer), usedUp: true });
    }
    await tx.update(carts).set({ discountCode: code.code }).where(eq(carts.userId, userId));
    return { ok: true, code };
  });
}

/**
 * A reminded cart brought back into its account (docs/decisions/089): each line at least at the quantity it
 * was left with, so opening the link twice, or after adding more, never doubles anything.
 */
export async function restoreCartLines(
  db: Db,
  userId: string,
  lines: readonly { id: string; kind: CartItemKind; quantity: number }[],
): Promise<void> {
  if (lines.length === 0) return;
  await db.transaction(async (tx) => {
    await touchCart(tx, userId);
    const resolved = await resolveLines(
      tx,
      lines.map(({ id, kind, quantity }) => ({ id, kind, quantity, addedPricePaise: null })),
    );
    const known = resolved.filter((line) => line.unitPricePaise !== null);
    if (known.length === 0) return;
    await tx
      .insert(cartItems)
      .values(
        known.map((line) => ({
          userId,
          itemId: line.id,
          kind: line.kind,
          quantity: Math.min(line.quantity, MAX_QUANTITY),
          addedPricePaise: line.unitPricePaise ?? 0,
        })),
      )
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.itemId],
        set: { quantity: sql`greatest(${cartItems.quantity}, excluded.quantity)`, updatedAt: sql`now()` },
      });
  });
}

/** Takes the code off the cart; its use stays recorded, so it cannot be applied again. */
export async function removeCodeFromCart(db: Db, userId: string) {
  await db.transaction(async (tx) => {
    await touchCart(tx, userId);
    await tx.update(carts).set({ discountCode: null }).where(eq(carts.userId, userId));
  });
}

/**
 * Spec 4, on sign-in: the guest's lines are folded into the saved cart (same id: quantities summed, up to
 * 99; others appended), the guest's used codes are recorded for the account, and the code the guest had
 * applied is applied here unless the account had already used it. Returns the refusal, if any, in the
 * spec's words. Items the catalogue has never heard of are dropped: nothing could be shown for them.
 */
export async function mergeIntoCart(
  db: Db,
  userId: string,
  request: MergeCartRequest,
): Promise<{ discountMessage: string | null }> {
  return db.transaction(async (tx) => {
    // A merge already taken in (its answer was lost) changes nothing; the same merge sent twice at once
    // waits here for the first to commit, then finds it.
    const [fresh] = await tx
      .insert(cartMerges)
      .values({ userId, mergeId: request.mergeId })
      .onConflictDoNothing()
      .returning({ mergeId: cartMerges.mergeId });
    if (!fresh) return { discountMessage: null };
    await tx
      .delete(cartMerges)
      .where(and(eq(cartMerges.userId, userId), lt(cartMerges.mergedAt, sql`now() - interval '90 days'`)));
    await touchCart(tx, userId);
    const resolved = await resolveLines(
      tx,
      request.items.map((item) => ({ ...item, addedPricePaise: null })),
    );
    const known = resolved.filter((line) => line.unitPricePaise !== null);
    if (known.length > 0) {
      await tx
        .insert(cartItems)
        .values(
          known.map((line) => ({
            userId,
            itemId: line.id,
            kind: line.kind,
            quantity: line.quantity,
            addedPricePaise: line.unitPricePaise ?? 0,
            createdAt: sql`clock_timestamp()`,
          })),
        )
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.itemId],
          set: {
            quantity: sql`least(${cartItems.quantity} + excluded.quantity, ${MAX_QUANTITY})`,
            updatedAt: sql`now()`,
          },
        });
    }

    const applied = request.appliedCode ? normalizeCode(request.appliedCode) : null;
    const codes = await findDiscountCodes(tx, [
      ...new Set([...(request.usedCodes ?? []).map(normalizeCode), ...(applied ? [applied] : [])]),
    ]);
    let discountMessage: string | null = null;
    // The applied code first: whether the account had used it before decides whether it stays applied.
    if (applied) {
      const code = codes.find((candidate) => candidate.code === applied && candidate.active);
      const [cart] = await tx
        .select({ discountCode: carts.discountCode })
        .from(carts)
        .where(eq(carts.userId, userId));
      const unavailable = code ? codeUnavailable(code, new Date()) : null;
      if (!code) discountMessage = DISCOUNT_MESSAGES.invalid;
      else if (unavailable) discountMessage = unavailable;
      else if (cart?.discountCode === code.code) {
        // Already applied here, with a use of its own: the guest's application is that same use.
      } else if (await takeCustomerUse(tx, { userId }, code.code, code.usesPerCustomer, null)) {
        await tx.update(carts).set({ discountCode: code.code }).where(eq(carts.userId, userId));
      } else discountMessage = usedUpMessage(code.usesPerCustomer);
    }
    for (const code of codes) {
      if (code.code !== applied) await takeCustomerUse(tx, { userId }, code.code, code.usesPerCustomer, null);
    }
    return { discountMessage };
  });
}
