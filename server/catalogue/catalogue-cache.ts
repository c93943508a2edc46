import type pg from "pg";
import { createNotifyListener } from "../notify/notify-listener.ts";

/** The channel the migration's triggers notify on, from the transaction that changes the catalogue. */
export const CATALOGUE_CHANNEL = "catalogue_changed";
/** How the listener's connection is named in pg_stat_activity (the reconnect test finds it by this). */
export const LISTENER_APPLICATION_NAME = "shop-catalogue-listener";

/**
 * At most this many distinct answers (pages, product searches) are remembered per catalogue version; past it
 * the oldest is forgotten, so a crawler's thousand query strings cannot leave the real pages unremembered.
 */
const MAX_ENTRIES = 500;

export type CatalogueCache = {
  /**
   * The value remembered under `key` since the catalogue last changed, or `load()`'s, remembered. Concurrent
   * callers share one load. While the listener is not connected nothing is remembered: every call loads.
   */
  remember<T>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * What remember() has loaded under `key` since the catalogue last changed, with the listener connected;
   * undefined when nothing has finished loading (nothing is loaded here).
   */
  peek<T>(key: string): { value: T } | undefined;
  /** Whether changes are being heard (and so answers remembered). */
  listening(): boolean;
  /** Connects the listener if nothing has yet (the first remember() does too); it is listening soon after. */
  start(): void;
  /**
   * A number that changes whenever what is remembered is forgotten (a change heard, the listener lost or
   * back): an answer made while it stayed the same, with the listener connected, is the current catalogue's.
   */
  generation(): number;
  /**
   * Forgets at once what a change this instance has just committed made stale, so the next read here (the
   * owner's own tab reading the shop back) is of the change; the NOTIFY forgets it on every instance a moment
   * later, this one included.
   */
  changedHere(): void;
  stop(): Promise<void>;
};

type Log = Pick<Console, "info" | "error">;

/**
 * The catalogue in memory, forgotten whenever PostgreSQL announces a change on CATALOGUE_CHANNEL, on every
 * instance alike (decision 026). The listener has a connection of its own, opened on the first read; when
 * it is lost everything is forgotten and reads go to the database until it is back (retried with backoff).
 */
export function createCatalogueCache(
  connection: pg.ClientConfig,
  { log = console as Log, maxEntries = MAX_ENTRIES } = {},
): CatalogueCache {
  let entries = new Map<string, Promise<unknown>>();
  // The loads of `entries` that have finished, for peek(): forgotten with them.
  let loaded = new Map<string, { value: unknown }>();
  let generation = 0;

  const forget = () => {
    entries = new Map();
    loaded = new Map();
    generation++;
  };

  const listener = createNotifyListener(
    connection,
    [CATALOGUE_CHANNEL],
    {
      notification: forget,
      // Changes made while nobody was listening went unheard: start from nothing.
      listening: forget,
      lost: forget,
    },
    {
      log,
      applicationName: LISTENER_APPLICATION_NAME,
      lostMessage: (reason) => `[catalogue] listener lost (${reason}); reading from the database`,
      backMessage: "[catalogue] listener back; caching again",
    },
  );

  return {
    remember<T>(key: string, load: () => Promise<T>): Promise<T> {
      listener.start();
      if (!listener.listening()) return load();
      const known = entries.get(key);
      if (known) return known as Promise<T>;
      const loading = load();
      const owner = entries;
      const ownerLoaded = loaded;
      if (owner.size >= maxEntries) {
        const oldest = owner.keys().next().value as string;
        owner.delete(oldest);
        ownerLoaded.delete(oldest);
      }
      owner.set(key, loading);
      loading.then(
        (value) => {
          if (owner.get(key) === loading) ownerLoaded.set(key, { value });
        },
        // A failed load is not remembered: the next caller tries again.
        () => {
          if (owner.get(key) === loading) owner.delete(key);
        },
      );
      return loading;
    },
    peek<T>(key: string) {
      return listener.listening() ? (loaded.get(key) as { value: T } | undefined) : undefined;
    },
    listening: () => listener.listening(),
    start: () => listener.start(),
    generation: () => generation,
    changedHere: forget,
    async stop() {
      const stopping = listener.stop();
      forget();
      await stopping;
    },
  };
}
