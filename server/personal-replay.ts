import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { deflateSync, gzipSync } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import type { KnownSession, SessionMemo } from "./auth/session-memo.ts";
import type { Env } from "./env.ts";
import { routeOf } from "./errors.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { type Metrics, type RepeatedAnswer, repeatedAnswer } from "./observability.ts";
import { keptFirst, writeKept } from "./replay.ts";

type Bytes = Uint8Array<ArrayBuffer>;

/**
 * What a handler says of a signed-in answer it made from memory: its body before any Content-Encoding, and
 * whether it would still be the same (asked on every replay, after the session's own check).
 */
export type PersonalAnswer = { body: () => Bytes; still: () => boolean };

const PERSONAL = "personal-answer";

/** Marks the answer being made as one the same session may get again while `still` says so. */
export function markPersonal(c: Context, answer: PersonalAnswer) {
  c.set(PERSONAL as never, answer as never);
}

type Kept = {
  /** The session copy the answer was made for, exactly as sent, and what it says. */
  data: string;
  session: KnownSession;
  still: () => boolean;
  headers: string[];
  /** Whether the app's answer carried the request id (Better Auth's own answers do not). */
  withRequestId: boolean;
  body: Bytes;
  answered: RepeatedAnswer;
};

/** Headers that belong to one request or connection, never replayed. */
const OWN_HEADERS = new Set(["x-request-id", "connection", "keep-alive", "date", "content-length"]);

type NodeBindings = { incoming?: IncomingMessage };

const encoders: Record<string, (body: Bytes) => Bytes> = {
  gzip: (body) => new Uint8Array(gzipSync(body)),
  deflate: (body) => new Uint8Array(deflateSync(body)),
};

/**
 * The fast lane for signed-in reads (decision 069), the personal counterpart of server/replay.ts: a GET the
 * app answered for one session from memory (its cart's version, its priced cart, the session itself) is kept
 * with the headers the app sent, under the address, the Accept-Encoding and the session cookie. The same
 * request again is written from that in the node handler, before anything else runs, while the session
 * copy would still be accepted (its label, so any revocation heard ends it at once, and its expiries) and the
 * handler's own check says the answer is unchanged. Anything that set a cookie, or was not a 200, is not kept.
 */
export function createPersonalReplay(deps: {
  memo: SessionMemo;
  env: Env;
  metrics: Metrics;
  lifecycle?: Pick<Lifecycle, "draining">;
  /** Answers kept at once (session, address and encoding); past it the oldest goes. */
  maxKept?: number;
}) {
  const { memo, env, metrics, lifecycle, maxKept = 20_000 } = deps;
  const kept = new Map<string, Kept>();
  /** Addresses anything was ever kept for: every other request passes without its cookies being read. */
  const addresses = new Set<string>();
  // The same few header lists and access-line children for every session, made once.
  const headerLists = new Map<string, string[]>();
  const answers = new Map<string, RepeatedAnswer>();
  const keyOf = (incoming: IncomingMessage, token: string) =>
    `${incoming.url}\n${incoming.headers["accept-encoding"] ?? ""}\n${token}`;

  const record: MiddlewareHandler = async (c, next) => {
    await next();
    const answer = c.get(PERSONAL as never) as PersonalAnswer | undefined;
    const incoming = (c.env as NodeBindings | undefined)?.incoming;
    if (!answer || !incoming?.url || c.req.method !== "GET" || c.res.status !== 200) return;
    if (lifecycle?.draining || c.res.headers.has("set-cookie")) return;
    const cookies = memo.cookiesOf(incoming.headers.cookie);
    const session = cookies && memo.known(cookies);
    if (!cookies || !session || !answer.still()) return;
    const encoding = c.res.headers.get("content-encoding");
    const encode = encoding ? encoders[encoding] : undefined;
    if (encoding && !encode) return;
    const body = encode ? encode(answer.body()) : answer.body();
    const headers: string[] = [];
    c.res.headers.forEach((value, name) => {
      if (!OWN_HEADERS.has(name)) headers.push(name, value);
    });
    const listKey = headers.join("\n");
    let shared = headerLists.get(listKey);
    if (!shared) {
      shared = headers;
      headerLists.set(listKey, shared);
    }
    const route = routeOf(c);
    let answered = answers.get(route);
    if (!answered) {
      answered = repeatedAnswer({ method: "GET", route, status: 200 });
      answers.set(route, answered);
    }
    const key = keyOf(incoming, cookies.token);
    kept.delete(key);
    if (kept.size >= maxKept) kept.delete(kept.keys().next().value as string);
    kept.set(key, {
      data: cookies.data,
      session,
      still: answer.still,
      headers: shared,
      withRequestId: c.res.headers.has("x-request-id"),
      body,
      answered,
    });
    addresses.add(incoming.url);
  };

  /** Answers a request from what is kept for its session, if it can be; false sends it on to the app. */
  const replay = (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    if (incoming.method !== "GET" || !incoming.url || !addresses.has(incoming.url) || lifecycle?.draining) {
      return false;
    }
    if (incoming.headers["if-none-match"] !== undefined) return false;
    const cookies = memo.cookiesOf(incoming.headers.cookie);
    if (!cookies) return false;
    const key = keyOf(incoming, cookies.token);
    const answer = kept.get(key);
    if (!answer || answer.data !== cookies.data) return false;
    if (!memo.stillValid(answer.session) || !answer.still()) {
      kept.delete(key);
      return false;
    }
    memo.counts.known++;
    const headers = [...answer.headers, "content-length", String(answer.body.byteLength)];
    writeKept({ env, metrics }, incoming, outgoing, { ...answer, headers }, answer.withRequestId);
    return true;
  };

  return {
    record,
    /** Answers kept for this session first, `app` for everything else. */
    listener: (app: RequestListener) => keptFirst(replay, app, "a signed-in answer"),
  };
}
