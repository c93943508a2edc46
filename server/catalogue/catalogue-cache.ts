import pg from "pg";

/** The channel the migration's triggers notify on, from the transaction that changes the catalogue. */
export const CATALOGUE_CHANNEL = "catalogue_changed";
/** How the listener's connection is named in pg_stat_activity (the reconnect test finds it by this). */
export const LISTENER_APPLICATION_NAME = "shop-catalogue-listener";

/**
 * At most this many distinct answers (pages, product searches) are remembered per catalogue version; past it
 * the oldest is forgotten, so a crawler's thousand query strings cannot leave the real pages unremembered.
 */
const MAX_ENTRIES = 500;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 10_000;

export type CatalogueCache = {
  /**
   * The value remembered under `key` since the catalogue last changed, or `load()`'s, remembered. Concurrent
   * callers share one load. While the listener is not connected nothing is remembered: every call loads.
   */
  remember<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Whether changes are being heard (and so answers remembered). */
  listening(): boolean;
  /**
   * A number that changes whenever what is remembered is forgotten (a change heard, the listener lost or
   * back): an answer made while it stayed the same, with the listener connected, is the current catalogue's.
   */
  generation(): number;
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
  let client: pg.Client | undefined;
  let connected = false;
  let started = false;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let generation = 0;

  const forget = () => {
    entries = new Map();
    generation++;
  };

  const lost = (current: pg.Client, reason: string) => {
    if (client !== current) return;
    client = undefined;
    connected = false;
    forget();
    current.removeAllListeners("notification");
    current.end().catch(() => {});
    if (stopped) return;
    if (failures++ === 0) log.error(`[catalogue] listener lost (${reason}); reading from the database`);
    retryTimer = setTimeout(connect, retryMs);
    // A process that has nothing else to do must not stay alive just to reconnect.
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const connect = async () => {
    retryTimer = undefined;
    if (stopped) return;
    const current = new pg.Client({
      ...connection,
      application_name: LISTENER_APPLICATION_NAME,
      // A connection dropped without a FIN (a NAT, a failover) is noticed by TCP keepalive, not left hanging.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = current;
    current.on("error", (error) => lost(current, error.message));
    current.on("end", () => lost(current, "connection closed"));
    current.on("notification", (message) => {
      if (message.channel === CATALOGUE_CHANNEL) forget();
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${CATALOGUE_CHANNEL}`);
    } catch (error) {
      lost(current, (error as Error).message);
      return;
    }
    if (client !== current || stopped) return;
    // Changes made while nobody was listening went unheard: start from nothing.
    forget();
    connected = true;
    if (failures > 0) log.info("[catalogue] listener back; caching again");
    failures = 0;
    retryMs = FIRST_RETRY_MS;
  };

  return {
    remember<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!started) {
        started = true;
        void connect();
      }
      if (!connected) return load();
      const known = entries.get(key);
      if (known) return known as Promise<T>;
      const loading = load();
      const owner = entries;
      if (owner.size >= maxEntries) owner.delete(owner.keys().next().value as string);
      owner.set(key, loading);
      // A failed load is not remembered: the next caller tries again.
      loading.catch(() => {
        if (owner.get(key) === loading) owner.delete(key);
      });
      return loading;
    },
    listening: () => connected,
    generation: () => generation,
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      connected = false;
      forget();
      await current?.end().catch(() => {});
    },
  };
}
