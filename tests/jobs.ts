import { and, inArray, sql } from "drizzle-orm";
import type { Db } from "../server/db/client.ts";
import { jobs } from "../server/db/schema.ts";

/**
 * Until no job of `kinds` due by now is queued or running: each has run (done its work, or decided not to).
 * Jobs queued for later (a second reminder tomorrow) are not waited for.
 */
export async function dueJobsSettled(db: Db, kinds: readonly string[]) {
  for (let tries = 0; tries < 300; tries++) {
    const [row] = await db
      .select({ open: sql<number>`count(*)::int` })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, [...kinds]),
          inArray(jobs.status, ["queued", "running"]),
          sql`${jobs.runAt} <= now()`,
        ),
      );
    if ((row?.open ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${kinds.join(", ")} jobs still waiting`);
}
