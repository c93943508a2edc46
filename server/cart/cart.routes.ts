import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import {
  addCartItemSchema,
  cartItemParamSchema,
  mergeCartSchema,
  quoteCartSchema,
  setQuantitySchema,
} from "../../common/schemas/cart.ts";
import { markFunnelStep } from "../analytics/funnel-count.ts";
import { clientAddress } from "../auth/client-address.ts";
import { currentUser, requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound, tooManyRequests } from "../errors.ts";
import { markPersonal } from "../personal-replay.ts";
import { optionalIdempotencyKey, validate } from "../validate.ts";
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

const encoder = new TextEncoder();

/** A comment line now and then keeps proxies from closing an open tab's stream as idle. */
const HEARTBEAT_MS = 25_000;
/** How soon a browser opens the stream again after it closed (an instance restarting). */
const RECONNECT_MS = 1_000;
/** What a tab refused a stream is told to wait (the browser's own retry comes sooner, and is refused cheaply). */
const STREAM_REFUSED_RETRY_SECONDS = 30;

/**
 * A slot for one more stream from a client, and how to give it back (once), or undefined past `max`. Each stream
 * holds a socket, and sockets are what a process runs out of (decision 069): the count is this instance's, as the
 * sockets are.
 */
function streamSlots(max: number) {
  const openStreams = new Map<string, number>();
  return (client: string) => {
    const open = openStreams.get(client) ?? 0;
    if (open >= max) return undefined;
    openStreams.set(client, open + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (openStreams.get(client) ?? 1) - 1;
      if (left > 0) openStreams.set(client, left);
      else openStreams.delete(client);
    };
  };
}

/** The version from memory when this instance has heard every change since it last read it (decision 069). */
async function rememberedCartVersion({ db, live }: Deps, userId: string) {
  const known = live.cartVersion(userId);
  if (known !== undefined) return known;
  const generation = live.generation();
  const version = await getCartVersion(db, userId);
  live.rememberCartVersion(userId, version, generation);
  return version;
}

/** The priced cart from memory while neither the cart nor the catalogue has changed since it was priced. */
async function rememberedPricedCart({ db, live, catalogue }: Deps, userId: string) {
  // A priced cart is remembered only while catalogue changes are heard; nothing else may have started that.
  catalogue.start();
  const catalogueGeneration = catalogue.generation();
  const known = live.pricedCart(userId, catalogueGeneration);
  if (known) return known;
  const generation = live.generation();
  const cart = await priceCart(db, userId);
  // A code's state (used up by an order elsewhere, ended by the owner) changes without a cart version or a
  // catalogue change: a cart with a code is priced afresh each time.
  if (catalogue.listening() && cart.discount === null) {
    live.rememberPricedCart(userId, cart, generation, catalogueGeneration);
  }
  return cart;
}

/** The signed-in shopper's cart (one per account), changed line by line; and pricing for guests' carts. */
export function cartRoutes(deps: Deps) {
  return new Hono()
    .route("/", cartReadRoutes(deps))
    .route("/", cartEventRoutes(deps))
    .route("/", cartChangeRoutes(deps));
}

/** The cart and its version as a tab asks for them, answered from memory where it can be. */
function cartReadRoutes(deps: Deps) {
  const { live, catalogue } = deps;
  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        const cart = await rememberedPricedCart(deps, user.id);
        // Answered again from the node handler while memory still holds this very priced cart.
        markPersonal(c, {
          body: () => encoder.encode(JSON.stringify(cart)),
          still: () => live.pricedCart(user.id, catalogue.generation()) === cart,
        });
        return c.json(cart);
      })
      // Who is signed in, and the cart's change counter: asked when a tab starts and when its stream says so.
      .get("/version", async (c) => {
        const user = await currentUser(deps, c);
        if (!user) return c.json({ userId: null, version: 0 });
        const answer = { userId: user.id, version: await rememberedCartVersion(deps, user.id) };
        // Answered again from the node handler while the version this instance knows is still this one.
        markPersonal(c, {
          body: () => encoder.encode(JSON.stringify(answer)),
          still: () => live.cartVersion(user.id) === answer.version,
        });
        return c.json(answer);
      })
  );
}

/** An open tab following its cart, a few streams per client address at most. */
function cartEventRoutes(deps: Deps) {
  const { live, env } = deps;
  const takeStreamSlot = streamSlots(env.STREAMS_PER_CLIENT);
  return (
    new Hono()
      // An open tab follows its cart here (server-sent events): the same answer as /version first, then each
      // new version as this instance hears it, or "refetch" when it may have missed one.
      .get("/events", async (c) => {
        const release = takeStreamSlot(clientAddress(c, env) ?? "unknown");
        if (!release) {
          throw tooManyRequests(
            "too_many_streams",
            "Too many tabs from your connection are following their carts. Close some and try again.",
            STREAM_REFUSED_RETRY_SECONDS,
          );
        }
        let wake: (() => void) | undefined;
        const queued: string[] = [];
        let unsubscribe = () => {};
        let first: { userId: string | null; version: number };
        try {
          const user = await currentUser(deps, c);
          const userId = user?.id ?? null;
          // Following before reading, so a change between the two is sent rather than lost.
          unsubscribe = live.subscribe(userId, (event) => {
            queued.push(
              event.kind === "cart" ? JSON.stringify({ userId, version: event.version }) : "refetch",
            );
            wake?.();
          });
          first = { userId, version: userId ? await rememberedCartVersion(deps, userId) : 0 };
        } catch (error) {
          unsubscribe();
          release();
          throw error;
        }
        c.header("Cache-Control", "no-store");
        // nginx and other proxies would otherwise hold the stream back in their buffers.
        c.header("X-Accel-Buffering", "no");
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => {
            unsubscribe();
            release();
            wake?.();
          });
          try {
            await stream.writeSSE({ event: "cart", data: JSON.stringify(first), retry: RECONNECT_MS });
            while (!stream.aborted) {
              const next = queued.shift();
              if (next === "refetch") await stream.writeSSE({ event: "refetch", data: "" });
              else if (next !== undefined) await stream.writeSSE({ event: "cart", data: next });
              else {
                await new Promise<void>((resolve) => {
                  const timer = setTimeout(resolve, HEARTBEAT_MS);
                  wake = () => {
                    clearTimeout(timer);
                    resolve();
                  };
                });
                wake = undefined;
                if (queued.length === 0 && !stream.aborted) await stream.write(": keep-alive\n\n");
              }
            }
          } finally {
            unsubscribe();
            release();
          }
        });
      })
  );
}

/** Changing the signed-in cart line by line, merging a guest's cart into it, and pricing a guest's cart. */
function cartChangeRoutes(deps: Deps) {
  const { db } = deps;
  return (
    new Hono()
      .post("/items", validate("json", addCartItemSchema), async (c) => {
        const user = await requireUser(deps, c);
        const key = optionalIdempotencyKey(c);
        const { quantity = 1, ...item } = c.req.valid("json");
        const [line] = await resolveLines(db, [{ ...item, quantity, addedPricePaise: null }]);
        if (!line || line.unitPricePaise === null || line.availability === "not_sold") {
          throw notFound("That item is not sold in the shop.");
        }
        if (line.availability === "out_of_stock") {
          throw httpError(409, "out_of_stock", `${line.name} is out of stock.`);
        }
        const outcome = await addCartItem(
          db,
          user.id,
          { ...item, quantity, unitPricePaise: line.unitPricePaise },
          key,
        );
        if (outcome === "at_limit") {
          throw httpError(409, "quantity_limit", `You already have the most we allow of ${line.name} (99).`);
        }
        if (outcome === "key_reused") {
          throw httpError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different item or quantity.",
          );
        }
        c.header("Idempotent-Replayed", String(outcome === "repeated"));
        markFunnelStep(c, "added");
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
        // A guest's cart lives in the browser: the shop learns something is in it when asked to price it.
        if (items.length > 0) markFunnelStep(c, "added");
        return c.json(await priceEntries(db, items, discountCode));
      })
  );
}
