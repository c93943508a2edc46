import { sql } from "drizzle-orm";
import { type DocumentKind, documentNumber, financialYear } from "../../common/gst.ts";
import type { Tx } from "../db/client.ts";
import { documentCounters } from "../db/schema.ts";

export type TakenNumber = { number: string; financialYear: string; sequence: number };

/**
 * The next number of a series (kind and the financial year of `at`), inside the issuing transaction. The
 * upsert locks the series' row until that transaction ends: another issue, on any connection or instance,
 * waits for it and then counts on from what it committed; a rollback undoes the step with everything
 * else, so the number is given again to the next issue. Consecutive, no gaps, never twice.
 */
export async function takeDocumentNumber(tx: Tx, kind: DocumentKind, at: Date): Promise<TakenNumber> {
  const year = financialYear(at);
  const [row] = await tx
    .insert(documentCounters)
    .values({ kind, financialYear: year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.kind, documentCounters.financialYear],
      set: { lastNumber: sql`${documentCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentCounters.lastNumber });
  if (!row) throw new Error("The document counter returned no row.");
  return {
    number: documentNumber(kind, year, row.lastNumber),
    financialYear: year,
    sequence: row.lastNumber,
  };
}
