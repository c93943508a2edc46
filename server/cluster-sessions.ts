import cluster from "node:cluster";
import type { SessionCookies } from "./auth/session-memo.ts";

/**
 * Session copies remembered by one worker of a shop of several (docs/decisions/073), handed to the others
 * through the primary: each worker's memo (server/auth/session-memo.ts) skips Better Auth's check of a copy it
 * has seen accepted or written, and a shopper's requests land on any worker. In a sale the order that follows
 * a fresh copy is often the first request to reach the other worker (decision 069, eighth pass).
 */
const COPY = "shop:session-copy";
type CopyMessage = { type: typeof COPY } & SessionCookies;

const isCopy = (message: unknown): message is CopyMessage => {
  const { type, token, data } = (message ?? {}) as Partial<CopyMessage>;
  return type === COPY && typeof token === "string" && typeof data === "string";
};

/** In the primary: each copy a worker sends goes to every other worker. */
export function relaySessionCopies() {
  cluster.on("message", (from, message: unknown) => {
    if (!isCopy(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(message);
    }
  });
}

/**
 * In a worker: copies the other workers remembered go to `remember`; the function returned hands a copy
 * remembered here to them.
 */
export function shareSessionCopies(remember: (cookies: SessionCookies) => void) {
  process.on("message", (message: unknown) => {
    if (isCopy(message)) remember({ token: message.token, data: message.data });
  });
  return ({ token, data }: SessionCookies) => {
    if (process.connected) process.send?.({ type: COPY, token, data } satisfies CopyMessage);
  };
}
