import type { Db } from "./db/client.ts";
import type { Env } from "./env.ts";

/** What every router is built from: a plain object, passed in, so tests can build an app per database. */
export type Deps = { db: Db; env: Env };
