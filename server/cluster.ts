import cluster, { type Worker } from "node:cluster";
import { gatherMetricsForWorkers } from "./cluster-metrics.ts";
import { relaySessionCopies } from "./cluster-sessions.ts";
import { log } from "./log.ts";

/** A worker that lived at least this long had started well: the next one that ends is replaced at once. */
const STEADY_MS = 30_000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60_000;

/**
 * The primary of a shop of several worker processes sharing one port (docs/decisions/073). It serves nothing
 * itself: node:cluster hands each new connection to a worker in turn. It keeps `count` workers running,
 * replacing one that ends (after 1 s, 2 s, 4 s ... up to a minute while they keep ending within 30 s of their
 * start, so a worker that cannot start does not spin the cores); on SIGTERM/SIGINT it passes SIGTERM to every
 * worker, waits for them to drain (their grace and 5 s more, then SIGKILL), then runs `stopAlso` (the embedded
 * database) and exits.
 */
export function runWorkers(options: {
  count: number;
  /** Added to each worker's environment: the database the primary prepared, the one cookie secret. */
  workerEnv: Record<string, string>;
  graceMs: number;
  url: string;
  database: string;
  stopAlso: () => Promise<void>;
}) {
  const { count, workerEnv, graceMs } = options;
  const startedAt = new Map<Worker, number>();
  const pending = new Set<NodeJS.Timeout>();
  let quickEnds = 0;
  let stopping = false;
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  gatherMetricsForWorkers();
  relaySessionCopies();

  const fork = () => {
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker, Date.now());
    log.info({ worker: worker.id, workerPid: worker.process.pid }, "shop worker started");
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) return;
    quickEnds = lived < STEADY_MS ? quickEnds + 1 : 0;
    const retryMs = quickEnds === 0 ? 0 : Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (quickEnds - 1));
    log.error(
      { worker: worker.id, workerPid: worker.process.pid, code, signal, livedMs: lived, retryMs },
      "a shop worker ended; starting another",
    );
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) fork();
    }, retryMs);
    pending.add(timer);
  });

  log.info(
    { workers: count, database: options.database },
    `Starting ${count} shop workers on ${options.url} (${options.database})`,
  );
  for (let index = 0; index < count; index++) fork();

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    const running = [...startedAt.keys()].filter((worker) => !worker.isDead());
    log.info({ signal, workers: running.length }, "shutting down the shop workers");
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const force = setTimeout(() => worker.process.kill("SIGKILL"), graceMs + 5_000);
            worker.once("exit", () => {
              clearTimeout(force);
              resolve();
            });
            worker.process.kill("SIGTERM");
          }),
      ),
    );
    try {
      await options.stopAlso();
    } catch (error) {
      log.error({ err: error }, "stopping the database failed");
    }
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
