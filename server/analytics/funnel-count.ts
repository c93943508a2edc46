import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, RequestListener } from "node:http";
import { sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { FunnelStep } from "../../common/funnel.ts";
import { indianDate, startOfIndianDay } from "../../common/india-time.ts";
import { clientAddress, clientAddressOfPeer } from "../auth/client-address.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { log, serializeError } from "../log.ts";

/** How often each instance writes what it has seen: the request path never waits on the database for it. */
const FLUSH_MS = 2_000;
/** Distinct (day, step, visitor) held between flushes at most; past it a flush starts at once. */
const MAX_HELD = 20_000;
/** A browser's description longer than this is cut: nobody's is, a hostile one must not fill the memory. */
const MAX_USER_AGENT = 400;

/**
 * Clients that are not a person shopping (docs/decisions/090): crawlers, link previews, monitors, scripts and
 * headless browsers. A request without a User-Agent is not counted either.
 */
const NOT_A_PERSON =
  /bot|crawl|spider|slurp|archiver|headless|lighthouse|pagespeed|preview|facebookexternalhit|whatsapp|telegram|curl|wget|python|java\/|okhttp|go-http|node-fetch|undici|axios|httpclient|libwww|scrapy|phantomjs|monitor|uptime|pingdom|^node$/i;

/** A product or combo page, or its API read (a page opened in the app): the first step. */
const PRODUCT_VIEW = /^\/(?:product|combo|api\/products|api\/combos)\/[^/?]+(?:\?|$)/;

type Seen = {
  day: string;
  step: Exclude<FunnelStep, "paid">;
  address: string;
  userAgent: string;
  at: number;
  /** For "ordered": the order, whose payment later makes the session "paid". */
  orderId?: string;
};

/** The visitor a request comes from, or undefined when it is not to be counted. */
type Visitor = { address: string; userAgent: string };

/** A visitor before the (dearer) test of whether it is a person: the browser's own words, cut to size. */
function visitorOf(
  userAgent: string | undefined,
  doNotTrack: string | undefined,
  globalPrivacyControl: string | undefined,
  address: string | undefined,
): Visitor | undefined {
  if (!userAgent || doNotTrack === "1" || globalPrivacyControl === "1") return undefined;
  return { address: address ?? "", userAgent: userAgent.slice(0, MAX_USER_AGENT) };
}

const isPerson = (visitor: Visitor) => !NOT_A_PERSON.test(visitor.userAgent);

const DAY_MS = 24 * 60 * 60_000;

const MARK = "funnelStep";
type Mark = { step: "added" | "checkout" | "ordered"; orderId?: string };

/**
 * Says the answer being made is a step of the funnel for whoever asked (a cart add, checkout opened, an order
 * placed): the counter's middleware counts it once the answer is a success.
 */
export function markFunnelStep(c: Context, step: Mark["step"], orderId?: string) {
  c.set(MARK as never, { step, orderId } satisfies Mark as never);
}

export type FunnelCounter = {
  /** The node handler in front of `app`: counts product views, those answered from memory included. */
  listener: (app: RequestListener) => RequestListener;
  /** Counts the steps the API's handlers mark (markFunnelStep). */
  middleware: MiddlewareHandler;
  /** Writes what is held now; the timer does it every FLUSH_MS. */
  flush: () => Promise<void>;
  /** Stops the timer and writes what is held. */
  stop: () => Promise<void>;
};

/**
 * The funnel counted by the shop itself (docs/decisions/090). A request costs a test of its path and, when it is
 * a step, an entry in a map; every FLUSH_MS the map becomes one INSERT ... ON CONFLICT DO NOTHING on (day, step,
 * visitor), so several instances add up and a session is counted once. The visitor is a hash of the day's salt
 * (shared in PostgreSQL, deleted when the day is over) with the address and the browser's User-Agent: nothing
 * is stored on the device, and nothing kept lets anyone tell later whose visit it was. Do-not-track, Global
 * Privacy Control and clients that are not people are not counted; the owner's switch is read by the INSERT.
 */
export function createFunnelCounter({ db, env }: { db: Db; env: Env }): FunnelCounter {
  let held = new Map<string, Seen>();
  const salts = new Map<string, string>();
  let flushing: Promise<void> | undefined;

  // India's date, worked out again only when a day ends: asked on every product view.
  let today = "";
  let todayEnds = 0;
  const dayNow = () => {
    const now = Date.now();
    if (now >= todayEnds) {
      today = indianDate(new Date(now));
      todayEnds = startOfIndianDay(today).getTime() + DAY_MS;
    }
    return today;
  };
  const keyOf = (day: string, step: Seen["step"], visitor: Visitor, orderId?: string) =>
    `${day}\n${step}\n${visitor.address}\n${visitor.userAgent}\n${orderId ?? ""}`;

  const hold = (step: Seen["step"], visitor: Visitor, orderId?: string) => {
    const day = dayNow();
    const key = keyOf(day, step, visitor, orderId);
    if (held.has(key)) return;
    if (held.size >= MAX_HELD) {
      void flush();
      if (held.size >= MAX_HELD) return;
    }
    held.set(key, { day, step, ...visitor, at: Date.now(), orderId });
  };

  /** The day's salt: made by the first instance to need it today; a past day's is never made again. */
  const saltOf = async (day: string): Promise<string | undefined> => {
    const known = salts.get(day);
    if (known) return known;
    if (day === dayNow()) {
      await db.execute(sql`
        insert into funnel_salts (day, salt) values (${day}::date, ${randomBytes(32).toString("hex")})
        on conflict (day) do nothing`);
    }
    const [row] = (
      await db.execute<{ salt: string }>(sql`select salt from funnel_salts where day = ${day}::date`)
    ).rows;
    if (row) salts.set(day, row.salt);
    return row?.salt;
  };

  const write = async (batch: Seen[]) => {
    const rows: { day: string; step: string; visitor: string; at: string; order_id: string | null }[] = [];
    for (const day of new Set(batch.map((seen) => seen.day))) {
      const salt = await saltOf(day);
      // A day whose salt is gone is over and rolled up: what an instance still held of it is not counted.
      if (!salt) continue;
      for (const seen of batch) {
        if (seen.day !== day) continue;
        const visitor = createHash("sha256")
          .update(`${salt}\n${seen.address}\n${seen.userAgent}`)
          .digest("hex")
          .slice(0, 32);
        rows.push({
          day,
          step: seen.step,
          visitor,
          at: new Date(seen.at).toISOString(),
          order_id: seen.orderId ?? null,
        });
      }
    }
    // Only today's salt stays in memory, and only while it is today's.
    for (const day of salts.keys()) if (day !== dayNow()) salts.delete(day);
    if (rows.length === 0) return;
    // Sorted by key, so two instances writing the same sessions take their locks in one order (no deadlock).
    await db.execute(sql`
      with seen as (
        select day, step, visitor, at, order_id
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as r(day date, step text, visitor text, at timestamptz, order_id text)
         where not exists (
           select 1 from funnel_settings s where s.id = 1 and (not s.counting or r.at < s.changed_at))
      ),
      placed as (
        insert into funnel_orders (order_id, day, visitor)
        select order_id, day, visitor from seen where order_id is not null order by order_id
        on conflict (order_id) do nothing
      )
      insert into funnel_visits (day, step, visitor)
      select distinct day, step, visitor from seen order by day, step, visitor
      on conflict do nothing`);
  };

  const flush = (): Promise<void> => {
    if (flushing) return flushing;
    if (held.size === 0) return Promise.resolve();
    const batch = [...held.values()];
    held = new Map();
    flushing = write(batch)
      .catch((error: unknown) => {
        // The database is away for a moment: what was seen waits for the next flush, as far as room allows.
        log.warn({ err: serializeError(error), held: batch.length }, "funnel counts could not be written");
        for (const seen of batch) {
          if (held.size >= MAX_HELD) break;
          const key = keyOf(seen.day, seen.step, seen, seen.orderId);
          if (!held.has(key)) held.set(key, seen);
        }
      })
      .finally(() => {
        flushing = undefined;
      });
    return flushing;
  };

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    listener: (app) => (incoming: IncomingMessage, outgoing) => {
      if (incoming.method === "GET" && PRODUCT_VIEW.test(incoming.url ?? "")) {
        const { headers } = incoming;
        const forwarded = headers["x-forwarded-for"];
        const visitor = visitorOf(
          headers["user-agent"],
          headers.dnt as string | undefined,
          headers["sec-gpc"] as string | undefined,
          clientAddressOfPeer(
            incoming.socket.remoteAddress,
            Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
            env,
          ),
        );
        // A visitor already counted since the last flush costs a lookup; only a new one is looked at further.
        if (visitor && !held.has(keyOf(dayNow(), "viewed", visitor)) && isPerson(visitor)) {
          outgoing.once("finish", () => {
            if (outgoing.statusCode < 400) hold("viewed", visitor);
          });
        }
      }
      app(incoming, outgoing);
    },
    middleware: async (c, next) => {
      await next();
      const mark = c.get(MARK as never) as Mark | undefined;
      if (!mark || c.res.status >= 400) return;
      const visitor = visitorOf(
        c.req.header("user-agent"),
        c.req.header("dnt"),
        c.req.header("sec-gpc"),
        clientAddress(c, env),
      );
      if (!visitor || !isPerson(visitor)) return;
      hold(mark.step, visitor, mark.orderId);
    },
    flush: async () => {
      await flushing;
      await flush();
    },
    stop: async () => {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
