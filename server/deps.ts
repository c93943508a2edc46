import { createFunnelCounter, type FunnelCounter } from "./analytics/funnel-count.ts";
import { type Auth, createAuth } from "./auth/auth.ts";
import { type CatalogueCache, createCatalogueCache } from "./catalogue/catalogue-cache.ts";
import type { Db } from "./db/client.ts";
import type { Env } from "./env.ts";
import { createJobSignal, type JobSignal } from "./jobs/job-queue.ts";
import { createMailer, type Mailer } from "./mail.ts";
import { createLive, type Live } from "./notify/live.ts";
import { resolveAuthSecret } from "./secrets.ts";
import { rememberSettings } from "./settings/settings.data.ts";
import type { CourierService } from "./shipping/courier-service.ts";
import { createShiprocket, shiprocketConfig } from "./shipping/shiprocket.ts";
import { createSmsSender, type SmsSender } from "./sms/sms-sender.ts";

/** What every router is built from: a plain object, passed in, so tests can build an app per database. */
export type Deps = {
  db: Db;
  env: Env;
  mailer: Mailer;
  auth: Auth;
  catalogue: CatalogueCache;
  /** Sessions and carts as this instance has heard of them, and the open tabs following carts. */
  live: Live;
  /** Wakes this instance's job worker after a request queued a job. */
  jobs: JobSignal;
  /** Sends sign-in codes (MSG91, Twilio, or DATA_DIR/sms/ in development). */
  sms: SmsSender;
  /** Better Auth's secret, which also seals sign-in codes waiting in the job queue. */
  authSecret: string;
  /** The courier aggregator, when one is configured; null means staff ship by hand ("Mark shipped"). */
  courier: CourierService | null;
  /** Counts the funnel's steps from requests, written in batches off the request path (decision 090). */
  funnel: FunnelCounter;
};

export function createDeps({ db, env }: { db: Db; env: Env }): Deps {
  // The listener connects to the database the pool does, on a connection of its own.
  const catalogue = createCatalogueCache(db.$client.options);
  // Mail goes From the owner's shop name (decision 068's settings, remembered with the catalogue).
  const mailer = createMailer(env, async () => (await rememberSettings({ db, env, catalogue })).shopName);
  const jobs = createJobSignal();
  const live = createLive(db.$client.options, { sessionCacheSeconds: env.SESSION_CACHE_SECONDS });
  return {
    db,
    env,
    mailer,
    auth: createAuth({ db, env, jobs, live }),
    catalogue,
    live,
    jobs,
    sms: createSmsSender(env),
    authSecret: resolveAuthSecret(env),
    courier: courierServiceFor(env),
    funnel: createFunnelCounter({ db, env }),
  };
}

/** Shiprocket when its API user is configured; a second aggregator would be chosen here. */
function courierServiceFor(env: Env): CourierService | null {
  const config = shiprocketConfig(env);
  return config ? createShiprocket(config) : null;
}
