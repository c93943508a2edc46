import pg from "pg";

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 10_000;

/** How the listener's connection is named in pg_stat_activity (tests end it by this name). */
export const NOTIFY_LISTENER_APPLICATION_NAME = "shop-notify-listener";

export type NotifyHandlers = {
  /** A notification on one of the channels, in commit order. */
  notification: (channel: string, payload: string) => void;
  /** A new connection is being opened: what the one before heard may be incomplete. */
  connecting?: () => void;
  /**
   * Reads, on the listening connection right after LISTEN took effect and before `listening`, what was
   * decided before it: nothing committed since is missed (it is heard), nothing before it is unread. A
   * failure counts as a lost connection.
   */
  load?: (client: pg.Client) => Promise<void>;
  /** LISTEN took effect (first time or after a loss): what was remembered while deaf is stale. */
  listening: () => void;
  /** The connection is gone: nothing heard from now until `listening` is called again. */
  lost: () => void;
};

export type NotifyListener = {
  /** Opens the connection (once; later calls do nothing). */
  start: () => void;
  /** Whether notifications are being heard right now. */
  listening: () => boolean;
  /** When the current connection started listening (ms since the epoch), or null while deaf. */
  listeningSince: () => number | null;
  /** Runs a statement on the listening connection, or resolves null while there is none. */
  query: (text: string, values?: unknown[]) => Promise<pg.QueryResult | null>;
  stop: () => Promise<void>;
};

type Log = Pick<Console, "info" | "error">;

export type NotifyListenerOptions = {
  log?: Log;
  /** The connection's name in pg_stat_activity, so tests (and people) can tell the listeners apart. */
  applicationName?: string;
  /** What the log says, once, when the connection is lost: which reads now go to the database. */
  lostMessage?: (reason: string) => string;
  /** What the log says when it is back after a loss. */
  backMessage?: string;
};

/**
 * One connection per instance that LISTENs on `channels` and hands every notification to `handlers`. Lost, it
 * says so and reconnects with backoff (0.1 s doubling to 10 s). The live pushes and the catalogue cache both
 * listen through it (decision 026), so a fix to reconnecting reaches both.
 */
export function createNotifyListener(
  connection: pg.ClientConfig,
  channels: readonly string[],
  handlers: NotifyHandlers,
  {
    log = console as Log,
    applicationName = NOTIFY_LISTENER_APPLICATION_NAME,
    lostMessage = (reason: string) =>
      `[notify] listener lost (${reason}); sessions and carts read from the database`,
    backMessage = "[notify] listener back",
  }: NotifyListenerOptions = {},
): NotifyListener {
  let client: pg.Client | undefined;
  let since: number | null = null;
  let started = false;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  const lost = (current: pg.Client, reason: string) => {
    if (client !== current) return;
    client = undefined;
    const wasListening = since !== null;
    since = null;
    current.removeAllListeners("notification");
    current.end().catch(() => {});
    if (wasListening) handlers.lost();
    if (stopped) return;
    if (failures++ === 0) log.error(lostMessage(reason));
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
      application_name: applicationName,
      // A connection dropped without a FIN (a NAT, a failover) is noticed by TCP keepalive, not left hanging.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = current;
    handlers.connecting?.();
    current.on("error", (error) => lost(current, error.message));
    current.on("end", () => lost(current, "connection closed"));
    current.on("notification", (message) => {
      if (client === current) handlers.notification(message.channel, message.payload ?? "");
    });
    try {
      await current.connect();
      for (const channel of channels) await current.query(`LISTEN ${channel}`);
      if (handlers.load && client === current) await handlers.load(current);
    } catch (error) {
      lost(current, (error as Error).message);
      return;
    }
    if (client !== current || stopped) return;
    since = Date.now();
    if (failures > 0) log.info(backMessage);
    failures = 0;
    retryMs = FIRST_RETRY_MS;
    handlers.listening();
  };

  return {
    start() {
      if (started) return;
      started = true;
      void connect();
    },
    listening: () => since !== null,
    listeningSince: () => since,
    query(text, values) {
      return since !== null && client ? client.query(text, values) : Promise.resolve(null);
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      since = null;
      await current?.end().catch(() => {});
    },
  };
}
