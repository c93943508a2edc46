import { and, desc, eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import { adminJobQuerySchema, jobParamSchema } from "../../common/schemas/jobs.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireAdmin } from "../auth/session.ts";
import { jobs } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { validate } from "../validate.ts";

const listed = {
  id: jobs.id,
  kind: jobs.kind,
  payload: jobs.payload,
  status: jobs.status,
  attempts: jobs.attempts,
  maxAttempts: jobs.maxAttempts,
  runAt: jobs.runAt,
  lastError: jobs.lastError,
  createdAt: jobs.createdAt,
  updatedAt: jobs.updatedAt,
};

/**
 * What staff see of a job's payload: the fields that say what it is and for whom, named one by one. A payload
 * may carry a secret (a sealed sign-in link or code) that is no business of staff's, even sealed, and a field
 * added to some job later stays out until it is named here.
 */
const SHOWN_PAYLOAD_FIELDS = ["template", "to", "orderId", "kind", "forgotten"] as const;

function presentJob({ payload, ...job }: { payload: Record<string, unknown> } & Record<string, unknown>) {
  const shown = Object.fromEntries(
    SHOWN_PAYLOAD_FIELDS.filter((field) => field in payload).map((field) => [field, payload[field]]),
  );
  return { ...job, payload: shown };
}

/** Staff: background jobs (mails that failed for good, usually), and queuing a failed one again. */
export function adminJobRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .use(async (_c, next) => {
      await requireAdmin(deps, _c);
      await next();
    })
    .get("/", validate("query", adminJobQuerySchema), async (c) => {
      const { status, limit } = c.req.valid("query");
      const rows = await db
        .select(listed)
        .from(jobs)
        .where(status ? eq(jobs.status, status) : undefined)
        .orderBy(desc(jobs.id))
        .limit(limit ?? 50);
      return c.json({ jobs: rows.map(presentJob) });
    })
    .post("/:id/retry", validate("param", jobParamSchema), async (c) => {
      const id = Number(c.req.valid("param").id);
      // Who asked, for the audit entry: a retry sends again what failed (a mail, an SMS), so it is staff's act.
      const actor = await requireAdmin(deps, c);
      // A fresh set of tries, from now; only a job that failed for good (a queued one is tried anyway).
      const job = await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ kind: jobs.kind, attempts: jobs.attempts })
          .from(jobs)
          .where(and(eq(jobs.id, id), eq(jobs.status, "failed")))
          .for("update");
        if (!before) return undefined;
        const [retried] = await tx
          .update(jobs)
          .set({ status: "queued", attempts: 0, runAt: sql`now()`, lockedUntil: null })
          .where(eq(jobs.id, id))
          .returning(listed);
        await recordAudit(tx, {
          actor,
          entityType: "job",
          entityId: String(id),
          action: "retry",
          before: { kind: before.kind, status: "failed", attempts: before.attempts },
          after: { status: "queued", attempts: 0 },
        });
        return retried;
      });
      if (!job) {
        const [exists] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id));
        if (!exists) throw notFound("There is no such job.");
        throw httpError(
          409,
          "job_not_failed",
          `This job is ${exists.status}; only a failed job can be retried.`,
        );
      }
      deps.jobs.wake();
      return c.json({ job: presentJob(job) });
    });
}
