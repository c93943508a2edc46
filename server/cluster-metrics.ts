import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * `GET /metrics` of a shop of several worker processes (docs/decisions/073): whichever worker takes the scrape
 * asks the primary, which gathers every worker's registry with prom-client's own cluster messages and sums
 * them (counters and histograms added; each gauge by its `aggregator`), so a scrape counts the whole shop
 * whichever worker answered it.
 */
const ASK = "shop:cluster-metrics-ask";
const ANSWER = "shop:cluster-metrics-answer";
type Answer = { type: typeof ANSWER; id: string; text?: string; error?: string };

/** Past prom-client's own 5 s wait for the workers, so its "timed out" arrives rather than ours. */
const ANSWER_WAIT_MS = 6_000;

/** In a worker: this registry is the one the primary gathers. */
export function offerMetricsToPrimary(registry: Registry) {
  AggregatorRegistry.setRegistries([registry]);
  // Its constructor adds the listener that answers the primary's gathering; one is enough per process.
  new AggregatorRegistry();
}

/** In the primary: answers a worker's ask with the sum of every worker's metrics, or why not. */
export function gatherMetricsForWorkers() {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK || typeof message.id !== "string") return;
    const reply = (answer: Omit<Answer, "type" | "id">) => {
      // The asking worker may have ended meanwhile; there is no one left to tell.
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/** True in a worker of a cluster whose primary can be asked. */
export const isClusterWorker = () => cluster.isWorker && typeof process.send === "function";

/** In a worker: every worker's metrics, through the primary; rejects when they do not all arrive. */
export function clusterMetrics(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    const onMessage = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      done();
      if (typeof message.text === "string") resolve(message.text);
      else reject(new Error(`the workers' metrics could not be gathered: ${message.error}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error("the primary did not answer with the workers' metrics"));
    }, ANSWER_WAIT_MS);
    process.on("message", onMessage);
    process.send?.({ type: ASK, id });
  });
}
