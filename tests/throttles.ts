import { inArray, sql } from "drizzle-orm";
import type { Db } from "../server/db/client.ts";
import { authThrottles } from "../server/db/schema.ts";
import { throttleKey } from "../server/throttles/throttle.ts";

/** Moves the windows of these throttle keys into the past, as if the client had waited that long. */
export async function passTime(db: Db, keys: readonly string[], minutes: number) {
  await db
    .update(authThrottles)
    .set({
      windowStartedAt: sql`${authThrottles.windowStartedAt} - make_interval(mins => ${minutes})`,
      lastAttemptAt: sql`${authThrottles.lastAttemptAt} - make_interval(mins => ${minutes})`,
    })
    .where(inArray(authThrottles.key, keys.map(throttleKey)));
}
