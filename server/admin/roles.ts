import { eq } from "drizzle-orm";
import type { UserRole } from "../../common/account.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";

export type RoleChange =
  | { outcome: "no_such_account" }
  | { outcome: "unchanged"; email: string; role: UserRole }
  | { outcome: "changed"; email: string; role: UserRole; sessionsEnded: number };

const RANK: Record<UserRole, number> = { customer: 0, staff: 1, owner: 2 };

/**
 * Gives the account with this e-mail a role (customer revokes). Taking access away (owner to staff, or any
 * role to customer) also ends every session of the account, so the person is signed out at once instead of
 * keeping the pages they had open. The change and its audit entry are written in one transaction.
 */
export async function setRole(db: Db, email: string, role: UserRole, actor: AuditActor): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .for("update");
    if (!user) return { outcome: "no_such_account" };
    if (user.role === role) return { outcome: "unchanged", email: user.email, role };
    await tx.update(users).set({ role }).where(eq(users.id, user.id));
    const ended =
      RANK[role] < RANK[user.role]
        ? await tx.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.id })
        : [];
    await recordAudit(tx, {
      actor,
      entityType: "role",
      entityId: user.id,
      action: role === "customer" ? "revoke" : "grant",
      before: { email: user.email, role: user.role },
      after: { email: user.email, role },
    });
    return { outcome: "changed", email: user.email, role, sessionsEnded: ended.length };
  });
}
