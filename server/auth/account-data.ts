import { eq, like, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";

/** The slice of Better Auth's internal adapter the hooks use; it runs inside Better Auth's transaction. */
type UserStore = {
  findUserById: (id: string) => Promise<{ email: string; emailVerified: boolean; role?: unknown } | null>;
  updateUser: (id: string, data: Record<string, unknown>) => Promise<unknown>;
};

export function isAdminEmail(env: Env, email: string): boolean {
  return env.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

/**
 * ADMIN_EMAILS makes an account the shop's owner when it signs up or signs in, but only once its address is
 * proven (a confirmed sign-up, an e-mail link, a provider that vouches for it): anyone can type the
 * owner's address into the sign-up form, only the owner can click the link sent to it. Says whether it did.
 */
export async function grantAdminByEmail(
  store: UserStore | undefined,
  env: Env,
  userId: string,
): Promise<boolean> {
  if (!store || env.ADMIN_EMAILS.length === 0) return false;
  const user = await store.findUserById(userId);
  if (!user?.emailVerified || user.role === "owner" || !isAdminEmail(env, user.email)) return false;
  await store.updateUser(userId, { role: "owner" });
  return true;
}

/**
 * Deleting an account removes the users row; every table that references it with ON DELETE CASCADE
 * (sessions, sign-in methods, cart, discount uses) goes with it in that one statement. Pending one-time
 * links are not tied to the row, yet carry the address: they go first.
 */
export async function forgetPendingLinks(db: Db, user: { id: string; email: string }) {
  await db
    .delete(verifications)
    .where(
      or(
        eq(verifications.value, user.id),
        like(verifications.value, `%"email":${JSON.stringify(user.email).replace(/[%_\\]/g, "\\$&")}%`),
      ),
    );
}
