import { isStaffRole, type SessionUser } from "../../common/account.ts";
import { api } from "./api.ts";

/**
 * Who is signed in, from the session cookie; for loaders and the header's session store. Kept apart from
 * session.ts's loader guards (and the redirect filter they bring): every first visit downloads this.
 */
export async function fetchSessionUser(): Promise<SessionUser | null> {
  const session = await api<{ user: SessionUser & Record<string, unknown> } | null>("/auth/get-session");
  if (!session?.user) return null;
  const { id, email, name, role } = session.user;
  return { id, email, name, role: isStaffRole(role) ? role : "customer" };
}
