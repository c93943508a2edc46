import { asc, eq, inArray } from "drizzle-orm";
import type { UserRole } from "../../common/account.ts";
import type { StaffMember } from "../../common/schemas/staff.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";

export type RoleChange =
  | { outcome: "no_such_account" }
  | { outcome: "last_owner"; email: string }
  | { outcome: "unchanged"; email: string; role: UserRole }
  | { outcome: "changed"; email: string; role: UserRole; sessionsEnded: number };

const RANK: Record<UserRole, number> = { customer: 0, staff: 1, owner: 2 };

const DESCRIBED: Record<UserRole, string> = { customer: "a customer", staff: "staff", owner: "an owner" };

/** What happened, in words for the owner's page and the command line alike. */
export function describeRoleChange(change: RoleChange, asked: string): string {
  switch (change.outcome) {
    case "no_such_account":
      return `No account uses ${asked}. The person must sign up first, then try again.`;
    case "last_owner":
      return `${change.email} is the shop's only owner, and a shop needs one. Make someone else an owner first.`;
    case "unchanged":
      return `${change.email} is already ${DESCRIBED[change.role]}.`;
    case "changed":
      return change.role === "customer"
        ? `${change.email} no longer has admin access; ${change.sessionsEnded} session(s) ended.`
        : `${change.email} is now ${DESCRIBED[change.role]}${change.sessionsEnded ? `; ${change.sessionsEnded} session(s) ended` : ""}.`;
  }
}

/**
 * Gives the account with this e-mail a role (customer revokes). Taking access away (owner to staff, or any
 * role to customer) also ends every session of the account, so the person is signed out at once instead of
 * keeping the pages they had open. The last owner keeps the role: nobody, from the admin or the command
 * line, can leave the shop without an owner. The change and its audit entry are written in one transaction.
 */
export async function setRole(db: Db, email: string, role: UserRole, actor: AuditActor): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    // The owners are locked first, always in one order: two owners demoting each other at the same moment
    // queue here, and the second sees the first's change, so one owner is always left (and no deadlock).
    const owners = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "owner"))
      .orderBy(asc(users.id))
      .for("update");
    const [user] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .for("update");
    if (!user) return { outcome: "no_such_account" };
    if (user.role === role) return { outcome: "unchanged", email: user.email, role };
    if (user.role === "owner" && owners.length <= 1) return { outcome: "last_owner", email: user.email };
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

/**
 * Everyone with admin access, owners first. A shop has a handful, so the list is read whole rather than
 * paged (decision 046).
 */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(inArray(users.role, ["owner", "staff"]))
    .orderBy(asc(users.role), asc(users.email)); // "owner" sorts before "staff"
  return rows.map((row) => ({ ...row, role: row.role === "owner" ? "owner" : "staff" }));
}
