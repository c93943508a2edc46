import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { fromTemplate, placeholderRows } from "../db/message-transaction.ts";
import { jobs } from "../db/schema.ts";
import { log, serializeError } from "../log.ts";

/** What a job does with its payload; throwing means "try again later" until its last try. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

/** Wakes this instance's worker when it queued a job itself, so the job does not wait for the next poll. */
export type JobSignal = { wake: () => void; onWake: (listener: () => void) => () => void };

export function createJobSignal(): JobSignal {
  const listeners = new Set<() => void>();
  return {
    wake() {
      for (const listener of listeners) listener();
    },
    onWake(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Queues a job. Called with the transaction of the change that causes it, the job exists exactly when
 * the change is committed. A job with a key already queued (or done) is not queued again.
 */
export async function enqueueJob(db: Db | Tx, job: NewJob): Promise<void> {
  await enqueueJobs(db, [job]);
}

export type NewJob = { kind: string; payload: Record<string, unknown>; key?: string; runAt?: Date };

/** Queues several jobs in one statement (one round trip for a change that causes many), as enqueueJob does. */
export async function enqueueJobs(db: Db | Tx, list: readonly NewJob[]): Promise<void> {
  if (list.length === 0) return;
  await jobsInsert(db, list);
}

function jobsInsert(db: Db | Tx, list: readonly NewJob[]) {
  return db
    .insert(jobs)
    .values(list.map((job) => ({ kind: job.kind, payload: job.payload, key: job.key, runAt: job.runAt })))
    .onConflictDoNothing({ target: jobs.key });
}

/** enqueueJobs' statement, for a caller sending it with others in one message (placeOrder). */
export function jobsStatement(db: Db | Tx, list: readonly NewJob[]) {
  const { held, values, shape } = placeholderRows(
    list.map((job) => ({ kind: job.kind, payload: job.payload, key: job.key, runAt: job.runAt })),
  );
  return fromTemplate(`jobs ${shape}`, () => jobsInsert(db, held as NewJob[]), values);
}

/** A job whose worker neither finished nor failed it within this time is taken up by another worker. */
const LEASE_MS = 5 * 60_000;

/** How long shutdown waits for the job in hand to finish. */
const STOP_WAIT_MS = 10_000;

type Claimed = {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
};

/** Takes the next due job, if any, past other workers' (SKIP LOCKED), and leases it to this worker. */
async function claimJob(db: Db): Promise<Claimed | undefined> {
  const result = await db.execute<{
    id: string;
    kind: string;
    payload: Record<string, unknown>;
    attempts: number;
    max_attempts: number;
  }>(sql`
    update jobs
       set status = 'running', attempts = attempts + 1,
           locked_until = now() + ${`${LEASE_MS} milliseconds`}::interval, updated_at = now()
     where id = (
       select id from jobs
        where (status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now())
        order by run_at, id
        for update skip locked
        limit 1)
    returning id, kind, payload, attempts, max_attempts`);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    kind: row.kind,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

/** The wait before try `attempts + 1`: base, 2 x base, 4 x base, ... */
export function retryDelayMs(retryBaseMs: number, attempts: number): number {
  return retryBaseMs * 2 ** Math.max(0, attempts - 1);
}

/**
 * A job whose payload carries a secret, even sealed (an account mail's sign-in link), asks for it to be
 * forgotten once the job is settled, done or failed for good: what is kept afterwards says what it was.
 */
const FORGET_PAYLOAD = sql`case when (payload->>'forgetWhenSettled')::boolean
  then jsonb_build_object('forgotten', true, 'template', payload->'template', 'to', payload->'to')
  else payload end`;

/**
 * Records how a try ended. Only the try that still holds the job does: a worker whose lease ran out (and
 * whose job another worker took, counting a new try) changes nothing.
 */
async function settleJob(
  db: Db,
  job: Claimed,
  error: unknown,
  retryBaseMs: number,
): Promise<number | undefined> {
  if (error === undefined) {
    await db.execute(sql`
      update jobs set status = 'done', locked_until = null, last_error = null, updated_at = now(),
             payload = ${FORGET_PAYLOAD}
       where id = ${job.id} and status = 'running' and attempts = ${job.attempts}`);
    return;
  }
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
  if (job.attempts >= job.maxAttempts) {
    log.error(
      { job: job.id, kind: job.kind, attempts: job.attempts, err: serializeError(error) },
      "job failed for good",
    );
    await db.execute(sql`
      update jobs set status = 'failed', locked_until = null, last_error = ${message}, updated_at = now(),
             payload = ${FORGET_PAYLOAD}
       where id = ${job.id} and status = 'running' and attempts = ${job.attempts}`);
    return;
  }
  const delay = retryDelayMs(retryBaseMs, job.attempts);
  log.warn(
    { job: job.id, kind: job.kind, attempts: job.attempts, retryInMs: delay, err: serializeError(error) },
    "job failed; will retry",
  );
  await db.execute(sql`
    update jobs set status = 'queued', locked_until = null, last_error = ${message},
           run_at = now() + ${`${delay} milliseconds`}::interval, updated_at = now()
     where id = ${job.id} and status = 'running' and attempts = ${job.attempts}`);
  return delay;
}

/**
 * Runs due jobs one at a time until stopped: every instance runs one, and SKIP LOCKED gives each job to one
 * of them. Returns the stop function, which lets the job in hand finish (and be recorded) first.
 */
export function startJobWorker(options: {
  db: Db;
  signal: JobSignal;
  handlers: Record<string, JobHandler>;
  pollMs: number;
  retryBaseMs: number;
}): () => Promise<void> {
  const { db, handlers, pollMs, retryBaseMs } = options;
  let stopped = false;
  let rouse: (() => void) | undefined;
  let woken = false;
  const unsubscribe = options.signal.onWake(() => {
    woken = true;
    rouse?.();
  });
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        rouse = undefined;
        resolve();
      }
      rouse = done;
    });

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let job: Claimed | undefined;
      try {
        job = await claimJob(db);
      } catch (error) {
        // The database is away: the jobs wait in it, and the worker looks again later.
        log.warn({ err: serializeError(error) }, "job worker could not reach the database");
        await pause(pollMs);
        continue;
      }
      if (!job) {
        await pause(pollMs);
        continue;
      }
      const handler = handlers[job.kind];
      let failure: unknown;
      try {
        if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
        await handler(job.payload);
      } catch (error) {
        failure = error ?? new Error("job failed");
      }
      try {
        const retryIn = await settleJob(db, job, failure, retryBaseMs);
        // A retry due before the next poll is looked for when it is due, not a poll later.
        if (retryIn !== undefined && retryIn < pollMs) {
          setTimeout(() => {
            woken = true;
            rouse?.();
          }, retryIn).unref();
        }
      } catch (error) {
        // Left running: its lease runs out and it is tried again.
        log.warn({ job: job.id, err: serializeError(error) }, "job outcome could not be recorded");
      }
    }
  })();

  return async () => {
    stopped = true;
    unsubscribe();
    rouse?.();
    // A mail server that hangs must not hold the shutdown: past the wait, the job's lease runs out and
    // another instance (or this one, restarted) tries it again.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.warn({ waitMs: STOP_WAIT_MS }, "job in hand still running at shutdown; left to its lease");
        resolve();
      }, STOP_WAIT_MS);
    });
    await Promise.race([loop, waited]);
    clearTimeout(timer);
  };
}
