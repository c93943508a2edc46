import { and, eq, sql } from "drizzle-orm";
import type { AuditEntityType, AuditListQuery, AuditPage } from "../../common/schemas/audit.ts";
import type { Db } from "../db/client.ts";
import { cursorAt, keysetOrder, keysetPage, keysetWhere } from "../db/keyset.ts";
import { auditLog } from "../db/schema.ts";

const AUDIT_KEYS = { at: auditLog.createdAt, id: auditLog.id };

/**
 * One keyset page of the log, newest first, filtered by what changed and by whom; each filter has its own
 * (…, created_at, id) index, so a page costs the same at any depth and nothing counts the table.
 */
export async function listAudit(db: Db, query: AuditListQuery): Promise<AuditPage> {
  const rows = await db
    .select({
      id: auditLog.id,
      at: cursorAt(auditLog.createdAt),
      actorId: auditLog.actorId,
      actorEmail: auditLog.actorEmail,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      action: auditLog.action,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .where(
      and(
        query.entityType ? eq(auditLog.entityType, query.entityType) : undefined,
        query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
        keysetWhere(AUDIT_KEYS, query),
      ),
    )
    .orderBy(...keysetOrder(AUDIT_KEYS, query))
    .limit(query.limit + 1);
  const page = keysetPage(rows, query.limit, query, (row) => ({ at: row.at, id: row.id }));
  return {
    items: page.items.map((row) => ({ ...row, entityType: row.entityType as AuditEntityType })),
    cursors: page.cursors,
    actors: await auditActors(db),
  };
}

/**
 * Everyone who now has a staff role, plus anyone who made the newest entries: the "by" filter's choices.
 * Read from users (a few rows), not by scanning the log.
 */
async function auditActors(db: Db): Promise<{ id: string; email: string }[]> {
  const result = await db.execute<{ id: string; email: string }>(sql`
    select id, email from users where role in ('staff', 'owner')
    union
    select distinct actor_id as id, actor_email as email
      from (select actor_id, actor_email from audit_log order by created_at desc, id desc limit 200) recent
    order by email`);
  return result.rows;
}
