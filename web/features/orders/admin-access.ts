import { data, redirect } from "react-router";
import type { SessionUser } from "../../../common/account.ts";
import { fetchSessionUser } from "../../lib/session.ts";

/**
 * For loaders of admin screens: signed out goes to the admin sign-in and back, a customer gets a 403
 * (shown by the screen's ErrorBoundary). The API checks again on every call; this only spares a useless page.
 */
export async function requireAdminUser(request: Request): Promise<SessionUser> {
  const user = await fetchSessionUser();
  if (!user) {
    const { pathname, search } = new URL(request.url);
    throw redirect(`/admin/login?redirectTo=${encodeURIComponent(pathname + search)}`);
  }
  if (user.role !== "admin") throw data("This page is for the shop's staff.", { status: 403 });
  return user;
}
