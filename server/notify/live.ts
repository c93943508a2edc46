import type pg from "pg";
import type { PricedCart } from "../../common/cart.ts";
import { log } from "../log.ts";
import { createNotifyListener } from "./notify-listener.ts";

export const SESSION_CHANNEL = "session_changed";
export const CART_CHANNEL = "cart_changed";

/** What an open tab is told (GET /api/cart/events): the cart moved on, or look again (who, which version). */
export type CartEvent = { kind: "cart"; version: number } | { kind: "refetch" };

/** Per-user entries kept at most; past it the oldest is forgotten (and read from the database again). */
const MAX_USERS = 100_000;
/** A cart priced in memory is answered for at most this long: discount codes change without a cart version. */
const PRICED_CART_MS = 10_000;
/** How long no copy of a user changed here is trusted: far longer than a request that writes one takes. */
const CHANGED_HERE_MS = 5_000;
/** Some margin over the cookie's own life, for the clocks of instances that differ a little. */
const STAMP_MARGIN_MS = 2_000;
/**
 * How long a user's last stamp is kept in session_revocations: an instance reads only the last cookie lifetime,
 * the rest is room for an instance configured with a longer one while a change of it rolls out.
 */
const REVOCATION_KEEP_MS = 60 * 60_000;
const REVOCATION_PRUNE_EVERY_MS = 10 * 60_000;
const MICROSECONDS_NOW = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
/** The recent stamps, read right after LISTEN; the same statement drops the old ones. */
const LOAD_STAMPS = `WITH pruned AS (DELETE FROM session_revocations WHERE stamp < ${MICROSECONDS_NOW} - $2)
  SELECT user_id, stamp::text AS stamp FROM session_revocations WHERE stamp > ${MICROSECONDS_NOW} - $1`;
const PRUNE_STAMPS = `DELETE FROM session_revocations WHERE stamp < ${MICROSECONDS_NOW} - $1`;

export type Live = {
  /**
   * The label a session cookie cache written now carries, and that a cookie must carry to be trusted
   * (Better Auth's cookieCache.version): the last change to the user's sessions heard, the same on every
   * instance. While deaf, nothing is trusted; the stamps of the last cookie lifetime are read from
   * session_revocations each time the listener (re)connects, before anything is trusted.
   */
  sessionVersion: (userId: string) => string;
  /**
   * This instance is changing what a user's sessions carry inside a request whose answer writes a copy of the
   * user as read before the change (the role ADMIN_EMAILS grants at sign-in): for a few seconds no label of
   * that user matches, since the change's own stamp may be heard before that copy is labelled.
   */
  changedHere: (userId: string) => void;
  /** Whether a version known from memory would be right now (the listener has been heard from). */
  listening: () => boolean;
  /** Changes whenever memory is forgotten; a database read remembered only if it stayed the same. */
  generation: () => number;
  /** The cart version heard or read for this user, if known and trustworthy. */
  cartVersion: (userId: string) => number | undefined;
  rememberCartVersion: (userId: string, version: number, generation: number) => void;
  /**
   * Forgets what is known of a user's cart, after a request of theirs that may have changed it: its NOTIFY
   * arrives a few milliseconds after the answer, and the same device's next read must not precede it.
   */
  forgetCart: (userId: string) => void;
  pricedCart: (userId: string, catalogueGeneration: number) => PricedCart | undefined;
  rememberPricedCart: (
    userId: string,
    cart: PricedCart,
    generation: number,
    catalogueGeneration: number,
  ) => void;
  /** Follows one user's cart (or, for null, only the refetch broadcasts); returns how to stop. */
  subscribe: (userId: string | null, send: (event: CartEvent) => void) => () => void;
  /** Open subscriptions on this instance. */
  subscribers: () => number;
  stop: () => Promise<void>;
};

/**
 * What this instance knows about sessions and carts without asking the database, kept right by one LISTEN
 * connection (docs/decisions/069): session changes, cart versions, and the open tabs to tell.
 */
export function createLive(
  connection: pg.ClientConfig,
  { sessionCacheSeconds }: { sessionCacheSeconds: number },
): Live {
  const sessionStamps = new Map<string, { stamp: string; heardAt: number }>();
  const changedHereUntil = new Map<string, number>();
  let cartVersions = new Map<string, number>();
  let pricedCarts = new Map<string, { cart: PricedCart; catalogueGeneration: number; at: number }>();
  const following = new Map<string, Set<(event: CartEvent) => void>>();
  let count = 0;
  let generation = 0;
  let unheard = 0;
  const cookieMs = sessionCacheSeconds * 1000;
  const keepMs = Math.max(REVOCATION_KEEP_MS, cookieMs + STAMP_MARGIN_MS);

  const forgetCarts = () => {
    cartVersions = new Map();
    pricedCarts = new Map();
    generation++;
  };
  const forget = () => {
    sessionStamps.clear();
    changedHereUntil.clear();
    forgetCarts();
  };
  const broadcast = (event: CartEvent) => {
    for (const sends of following.values()) for (const send of sends) send(event);
  };
  const capped = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    if (map.size >= MAX_USERS) map.delete(map.keys().next().value as string);
    map.set(key, value);
  };
  const pruneStamps = (now: number) => {
    for (const [userId, { heardAt }] of sessionStamps) {
      // Insertion order is hearing order: the first young one ends the sweep.
      if (heardAt > now - cookieMs - STAMP_MARGIN_MS) break;
      sessionStamps.delete(userId);
    }
  };

  const listener = createNotifyListener(
    connection,
    [SESSION_CHANNEL, CART_CHANNEL],
    {
      connecting() {
        // A connection lost while it loaded may have heard some stamps and not read the others: start over.
        sessionStamps.clear();
      },
      async load(client) {
        const { rows } = await client.query<{ user_id: string; stamp: string }>(LOAD_STAMPS, [
          (cookieMs + STAMP_MARGIN_MS) * 1000,
          keepMs * 1000,
        ]);
        const now = Date.now();
        for (const row of rows) {
          // A stamp heard on this connection came from a commit after LISTEN, so it is at least as new as
          // the row read; notifications come in commit order, so the last heard is the one to keep.
          if (!sessionStamps.has(row.user_id))
            sessionStamps.set(row.user_id, { stamp: row.stamp, heardAt: now });
        }
      },
      notification(channel, payload) {
        const separator = payload.lastIndexOf(":");
        const userId = payload.slice(0, separator);
        const number = payload.slice(separator + 1);
        if (channel === SESSION_CHANNEL) {
          const now = Date.now();
          sessionStamps.delete(userId);
          sessionStamps.set(userId, { stamp: number, heardAt: now });
          pruneStamps(now);
          pricedCarts.delete(userId);
          // A tab of this user looks again: it may have been signed out.
          for (const send of following.get(userId) ?? []) send({ kind: "refetch" });
          return;
        }
        const version = Number(number);
        if ((cartVersions.get(userId) ?? -1) < version) capped(cartVersions, userId, version);
        for (const send of following.get(userId) ?? []) send({ kind: "cart", version });
      },
      listening() {
        // The session stamps are what this connection heard and loaded; the carts were not followed while deaf.
        forgetCarts();
        // Whatever changed while nobody listened went unheard: every open tab asks again.
        broadcast({ kind: "refetch" });
      },
      lost() {
        forget();
        broadcast({ kind: "refetch" });
      },
    },
    { log: { info: (message) => log.info(message), error: (message) => log.error(message) } },
  );

  let pruneTimer: NodeJS.Timeout | undefined;
  const start = () => {
    listener.start();
    if (pruneTimer) return;
    // Through the listening connection, so no pool connection is taken; every instance does it, harmlessly.
    pruneTimer = setInterval(() => {
      listener.query(PRUNE_STAMPS, [keepMs * 1000]).catch((error: Error) => {
        log.warn(`[notify] old session stamps not pruned: ${error.message}`);
      });
    }, REVOCATION_PRUNE_EVERY_MS);
    pruneTimer.unref();
  };
  const trusted = () => {
    start();
    return listener.listening();
  };

  return {
    sessionVersion(userId) {
      // While deaf every label is new, so no cookie matches (the same function labels a cookie written and
      // one read). Listening, the stamps of the last cookie lifetime were loaded before it counted as such.
      if (!trusted()) return `unheard-${++unheard}`;
      const until = changedHereUntil.get(userId);
      if (until !== undefined) {
        if (Date.now() < until) return `unheard-${++unheard}`;
        changedHereUntil.delete(userId);
      }
      return sessionStamps.get(userId)?.stamp ?? "0";
    },
    changedHere(userId) {
      changedHereUntil.set(userId, Date.now() + CHANGED_HERE_MS);
    },
    listening: trusted,
    generation: () => generation,
    cartVersion(userId) {
      return trusted() ? cartVersions.get(userId) : undefined;
    },
    rememberCartVersion(userId, version, readGeneration) {
      if (!listener.listening() || readGeneration !== generation) return;
      // A notification heard during the read is newer than what was read.
      if ((cartVersions.get(userId) ?? -1) < version) capped(cartVersions, userId, version);
    },
    forgetCart(userId) {
      cartVersions.delete(userId);
      pricedCarts.delete(userId);
      // A read under way began before the change: it is not remembered.
      generation++;
    },
    pricedCart(userId, catalogueGeneration) {
      if (!trusted()) return undefined;
      const known = pricedCarts.get(userId);
      if (
        !known ||
        known.catalogueGeneration !== catalogueGeneration ||
        known.cart.version !== cartVersions.get(userId) ||
        Date.now() - known.at > PRICED_CART_MS
      ) {
        return undefined;
      }
      return known.cart;
    },
    rememberPricedCart(userId, cart, readGeneration, catalogueGeneration) {
      if (!listener.listening() || readGeneration !== generation) return;
      if ((cartVersions.get(userId) ?? -1) < cart.version) capped(cartVersions, userId, cart.version);
      if (cartVersions.get(userId) !== cart.version) return;
      capped(pricedCarts, userId, { cart, catalogueGeneration, at: Date.now() });
    },
    subscribe(userId, send) {
      start();
      const key = userId ?? "";
      let sends = following.get(key);
      if (!sends) {
        sends = new Set();
        following.set(key, sends);
      }
      sends.add(send);
      count++;
      return () => {
        if (!sends.delete(send)) return;
        count--;
        if (sends.size === 0 && following.get(key) === sends) following.delete(key);
      };
    },
    subscribers: () => count,
    async stop() {
      clearInterval(pruneTimer);
      await listener.stop();
      forget();
    },
  };
}
