import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { isTrustedPeer } from "./auth/client-address.ts";
import type { CatalogueCache } from "./catalogue/catalogue-cache.ts";
import type { Env } from "./env.ts";
import { routeOf } from "./errors.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { log, serializeError } from "./log.ts";
import {
  type Metrics,
  type RepeatedAnswer,
  recordRequest,
  repeatedAnswer,
  requestIdFor,
} from "./observability.ts";

type Bytes = Uint8Array<ArrayBuffer>;

/**
 * What a handler says of an answer it made from memory, the same for every visitor: its body, the
 * Content-Encoding it chose, and whether it lasts only as long as the catalogue (else: for the process).
 */
export type Replayable = { body: Bytes; encoding: string | undefined; catalogue: boolean };

const REPLAYABLE = "replayable";

/** Marks the answer being made as one any later identical request may get again, byte for byte. */
export function markReplayable(c: Context, replayable: Replayable) {
  c.set(REPLAYABLE as never, replayable as never);
}

export type Kept = {
  /** The headers the app sent, as node's flat [name, value, ...] list, without the request's own. */
  headers: string[];
  body: Bytes;
  /** Its metric labels and access-line fields, the same on every replay. */
  answered: RepeatedAnswer;
};

/** Headers that belong to one request or connection, never replayed. */
const OWN_HEADERS = new Set(["x-request-id", "connection", "keep-alive", "date", "content-length"]);

type NodeBindings = { incoming?: IncomingMessage };

/**
 * The fast lane for kept answers (decision 048). The first GET of a catalogue answer, a public page or a
 * hashed asset goes through the whole app, which marks it replayable (markReplayable); `record` then keeps
 * the headers the app really sent with the body. Later GETs of the same address with the same
 * Accept-Encoding are answered from that, in the node handler, before the request becomes a fetch Request:
 * every header rule (security headers, caching, encoding) stays written once, in the app. Each replay still
 * gets its own request id, access line and metrics. A conditional request (If-None-Match) and everything
 * while shutting down go through the app; a catalogue change anywhere forgets all of it.
 */
export function createReplay(deps: {
  catalogue: CatalogueCache;
  env: Env;
  metrics: Metrics;
  lifecycle?: Pick<Lifecycle, "draining">;
  /** Distinct addresses (with their Accept-Encoding) kept at once. */
  maxKept?: number;
}) {
  const { catalogue, env, metrics, lifecycle, maxKept = 1000 } = deps;
  let kept = new Map<string, Kept>();
  let keptGeneration = catalogue.generation();

  /** The kept answers, emptied first if the catalogue changed since they were made. */
  const current = () => {
    const generation = catalogue.generation();
    if (generation !== keptGeneration) {
      kept = new Map();
      keptGeneration = generation;
    }
    return kept;
  };
  const keyOf = (incoming: IncomingMessage) =>
    `${incoming.url}\n${incoming.headers["accept-encoding"] ?? ""}`;

  const record: MiddlewareHandler = async (c, next) => {
    const generation = catalogue.generation();
    const listening = catalogue.listening();
    await next();
    const replayable = c.get(REPLAYABLE as never) as Replayable | undefined;
    const incoming = (c.env as NodeBindings | undefined)?.incoming;
    if (!replayable || !incoming || c.req.method !== "GET" || c.res.status !== 200) return;
    if (lifecycle?.draining || c.res.headers.has("set-cookie")) return;
    // The body the handler kept is what was sent only if nothing after it re-encoded the answer.
    if ((c.res.headers.get("content-encoding") ?? undefined) !== replayable.encoding) return;
    // Made from the catalogue as it is now: the listener heard no change while this request ran.
    if (
      replayable.catalogue &&
      !(listening && catalogue.listening() && catalogue.generation() === generation)
    ) {
      return;
    }
    const answers = current();
    const key = keyOf(incoming);
    // Full (a crawler's thousand query strings): the longest kept goes, so an address asked for again is
    // kept again rather than every new one going through the app until the next change.
    if (!answers.has(key) && answers.size >= maxKept) answers.delete(answers.keys().next().value as string);
    const headers: string[] = [];
    c.res.headers.forEach((value, name) => {
      if (!OWN_HEADERS.has(name)) headers.push(name, value);
    });
    headers.push("content-length", String(replayable.body.byteLength));
    answers.set(key, {
      headers,
      body: replayable.body,
      answered: repeatedAnswer({ method: "GET", route: routeOf(c), status: 200 }),
    });
  };

  /** Answers a request from what is kept, if it can be; false sends it on to the app. */
  const replay = (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    if (incoming.method !== "GET" || incoming.headers["if-none-match"] !== undefined || lifecycle?.draining) {
      return false;
    }
    const answers = current();
    if (answers.size === 0) return false;
    const answer = answers.get(keyOf(incoming));
    if (!answer) return false;
    writeKept({ env, metrics }, incoming, outgoing, answer, true);
    return true;
  };

  return {
    record,
    /** The node request handler: kept answers first, `app` (the whole shop) for everything else. */
    listener: (app: RequestListener) => keptFirst(replay, app, "a kept answer"),
  };
}

/**
 * Writes a kept 200 answer with this request's own id (an offered one only from a trusted peer) and counts
 * it as the app would have. `withRequestId` is false for an answer whose app version carried none.
 */
export function writeKept(
  { env, metrics }: { env: Env; metrics: Metrics },
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  kept: Kept,
  withRequestId: boolean,
) {
  const started = performance.now();
  const offered = incoming.headers["x-request-id"];
  const requestId = requestIdFor(typeof offered === "string" ? offered : undefined, () =>
    isTrustedPeer(env, incoming.socket.remoteAddress),
  );
  outgoing.writeHead(200, withRequestId ? [...kept.headers, "x-request-id", requestId] : kept.headers);
  outgoing.end(kept.body);
  recordRequest(metrics, kept.answered, started, requestId);
}

/** The node request handler: `replay` answers what it can, `app` the rest; a throw in `replay` never ends the process. */
export function keptFirst(
  replay: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean,
  app: RequestListener,
  what: string,
): RequestListener {
  return (incoming, outgoing) => {
    let replayed = false;
    try {
      replayed = replay(incoming, outgoing);
    } catch (error) {
      // A throw here would end the process: the request goes to the app, or its connection is closed.
      log.error({ err: serializeError(error) }, `replaying ${what} failed`);
      if (outgoing.headersSent) return void outgoing.destroy();
    }
    if (!replayed) app(incoming, outgoing);
  };
}
