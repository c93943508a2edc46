import { and, desc, eq, gt } from "drizzle-orm";
import type { AccountSession } from "../../common/account.ts";
import type { Db } from "../db/client.ts";
import { sessions } from "../db/schema.ts";

export async function listActiveSessions(
  db: Db,
  userId: string,
  currentId: string,
): Promise<AccountSession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
      expiresAt: sessions.expiresAt,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt));
  return rows
    .map((row) => ({
      id: row.id,
      current: row.id === currentId,
      createdAt: row.createdAt.toISOString(),
      lastActiveAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** The token Better Auth revokes a session by; only ever for the user's own sessions, and never sent out. */
export async function findSessionToken(db: Db, userId: string, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ token: sessions.token })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
  return row?.token ?? null;
}
