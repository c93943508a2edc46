import pg from "pg";

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 10_000;

/** How the listener's connection is named in pg_stat_activity (tests end it by this name). */
export const NOTIFY_LISTENER_APPLICATION_NAME = "shop-notify-listener";

export type NotifyHandlers = {
  /** A notification on one of the channels, in commit order. */
  notification: (channel: string, payload: string) => void;
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
  stop: () => Promise<void>;
};

type Log = Pick<Console, "info" | "error">;

/**
 * One connection per instance that LISTENs on `channels` and hands every notification to `handlers`. Lost, it
 * says so and reconnects with backoff (0.1 s doubling to 10 s), like the catalogue's listener (decision 026).
 */
export function createNotifyListener(
  connection: pg.ClientConfig,
  channels: readonly string[],
  handlers: NotifyHandlers,
  { log = console as Log } = {},
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
    if (failures++ === 0)
      log.error(`[notify] listener lost (${reason}); sessions and carts read from the database`);
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const connect = async () => {
    retryTimer = undefined;
    if (stopped) return;
    const current = new pg.Client({
      ...connection,
      application_name: NOTIFY_LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = current;
    current.on("error", (error) => lost(current, error.message));
    current.on("end", () => lost(current, "connection closed"));
    current.on("notification", (message) => {
      if (client === current) handlers.notification(message.channel, message.payload ?? "");
    });
    try {
      await current.connect();
      for (const channel of channels) await current.query(`LISTEN ${channel}`);
    } catch (error) {
      lost(current, (error as Error).message);
      return;
    }
    if (client !== current || stopped) return;
    since = Date.now();
    if (failures > 0) log.info("[notify] listener back");
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
