import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";

export type RoleChange =
  | { outcome: "no_such_account" }
  | { outcome: "unchanged"; email: string; role: "customer" | "admin" }
  | { outcome: "changed"; email: string; role: "customer" | "admin"; sessionsEnded: number };

/**
 * Grants or revokes the admin role of the account with this e-mail. Revoking also ends every session of
 * the account, so a revoked admin is signed out at once instead of keeping the pages they had open.
 */
export async function setAdminRole(db: Db, email: string, admin: boolean): Promise<RoleChange> {
  const role = admin ? "admin" : "customer";
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .for("update");
    if (!user) return { outcome: "no_such_account" };
    if (user.role === role) return { outcome: "unchanged", email: user.email, role };
    await tx.update(users).set({ role }).where(eq(users.id, user.id));
    const ended = admin
      ? []
      : await tx.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.id });
    return { outcome: "changed", email: user.email, role, sessionsEnded: ended.length };
  });
}
