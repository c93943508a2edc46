import { z } from "zod";
import { plainText } from "./text.ts";

export const JOB_LIST_STATUSES = ["queued", "running", "done", "failed"] as const;

/** Staff's list of background jobs: by status (the failed ones, usually), newest first. */
export const adminJobQuerySchema = z
  .object({
    status: z.enum(JOB_LIST_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();

/** A job's id in a path: digits only. */
export const jobParamSchema = z.strictObject({
  id: plainText().regex(/^\d{1,15}$/, "must be a job number"),
});
