import type { SessionUser } from "../../common/account.ts";
import type { AuditEntityType } from "../../common/schemas/audit.ts";
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

/** Who made a change: the id and the e-mail of the time, kept even after the account changes or goes. */
export type AuditActor = Pick<SessionUser, "id" | "email">;

export type AuditEntry = {
  actor: AuditActor;
  entityType: AuditEntityType;
  entityId: string;
  action: string;
  before?: unknown;
  after?: unknown;
};

/**
 * Writes one audit entry with the transaction (or connection) that makes the change, so a change and its
 * entry are stored together or not at all. `before`/`after` are the fields that matter to a reader, as JSON.
 */
export async function recordAudit(tx: Pick<Db, "insert">, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    entityType: entry.entityType,
    entityId: entry.entityId,
    action: entry.action,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
