import { data, redirect } from "react-router";
import { isStaffRole, type SessionUser } from "../../common/account.ts";
import { withRedirect } from "../../common/redirect-target.ts";
import { fetchSessionUser } from "./session-user.ts";

/** For loaders of pages that need a session: a signed-out visitor goes to /login and comes back after. */
export async function requireSessionUser(request: Request): Promise<SessionUser> {
  const user = await fetchSessionUser();
  if (!user) {
    const { pathname, search } = new URL(request.url);
    throw redirect(withRedirect("/login", pathname + search));
  }
  return user;
}

/**
 * For loaders of admin pages: a signed-out visitor goes to /admin/login and back; a signed-in account
 * without the role gets a 403 the admin layout shows as "no admin access". The API decides the same on
 * its own for every /api/admin call.
 */
export async function requireAdminUser(request: Request): Promise<SessionUser> {
  const user = await fetchSessionUser();
  if (!user) {
    const { pathname, search } = new URL(request.url);
    throw redirect(withRedirect("/admin/login", pathname + search));
  }
  if (!isStaffRole(user.role)) throw data({ email: user.email }, { status: 403 });
  return user;
}

/** For loaders of the owner's pages (codes, audit log): staff get the same 403 page, naming the owner. */
export async function requireOwnerUser(request: Request): Promise<SessionUser> {
  const user = await requireAdminUser(request);
  if (user.role !== "owner") throw data({ email: user.email, ownerOnly: true }, { status: 403 });
  return user;
}
