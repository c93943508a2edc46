import type { Server } from "node:http";
import type { Http2SecureServer, Http2Server } from "node:http2";
import { log, serializeError } from "./log.ts";

type Stop = () => void | Promise<void>;

/**
 * The process's life after start: the one place background work (timers, LISTEN connections, job
 * workers) registers how to stop it, and the draining flag readiness reports while shutting down.
 */
export type Lifecycle = {
  /** True from the first shutdown signal on: /api/ready answers 503, answers close their connection. */
  readonly draining: boolean;
  /** Registers background work's stop function; stopped in reverse order of registration. */
  onStop: (name: string, stop: Stop) => void;
  /** Drains the HTTP server, stops background work, then runs `finally` (pool, database); never throws. */
  shutdown: (options: {
    server: Server | Http2Server | Http2SecureServer;
    graceMs: number;
    finally: Stop[];
  }) => Promise<void>;
};

export function createLifecycle(): Lifecycle {
  let draining = false;
  const stops: { name: string; stop: Stop }[] = [];

  const run = async (name: string, stop: Stop) => {
    try {
      await stop();
    } catch (error) {
      log.error({ err: serializeError(error), work: name }, "stopping failed");
    }
  };

  return {
    get draining() {
      return draining;
    },
    onStop(name, stop) {
      stops.push({ name, stop });
    },
    async shutdown({ server, graceMs, finally: last }) {
      draining = true;
      const started = Date.now();
      // close() stops accepting connections and lets requests in flight finish; past the grace,
      // whatever is still open is cut.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ("closeIdleConnections" in server) server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"grace over">((resolve) => {
        timer = setTimeout(() => resolve("grace over"), graceMs);
      });
      const outcome = await Promise.race([closed, graceOver]);
      clearTimeout(timer);
      if (outcome === "grace over" && "closeAllConnections" in server) {
        log.warn({ graceMs }, "requests still in flight after the grace period; closing their connections");
        server.closeAllConnections();
      }
      log.info({ ms: Date.now() - started }, "HTTP server closed");
      for (const { name, stop } of [...stops].reverse()) await run(name, stop);
      for (const [index, stop] of last.entries()) await run(`shutdown step ${index + 1}`, stop);
    },
  };
}
