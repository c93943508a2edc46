import type { Context } from "hono";
import type { SessionUser } from "../../common/account.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";

export type { SessionUser };

/** The signed-in user of this request, or null; decided by the session cookie, on the server. */
export async function currentUser({ auth }: Deps, c: Context): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) return null;
  const { id, email, name, role } = session.user as typeof session.user & { role?: string };
  return { id, email, name, role: role === "admin" ? "admin" : "customer" };
}

export async function requireUser(deps: Deps, c: Context): Promise<SessionUser> {
  const user = await currentUser(deps, c);
  if (!user) throw httpError(401, "unauthenticated", "Please sign in to continue.");
  return user;
}

export async function requireAdmin(deps: Deps, c: Context): Promise<SessionUser> {
  const user = await requireUser(deps, c);
  if (user.role !== "admin") throw httpError(403, "forbidden", "This account has no admin access.");
  return user;
}
