import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { isStaffRole, type SessionUser } from "../../common/account.ts";
import { isClusterWorker } from "../cluster-metrics.ts";
import { shareSessionCopies } from "../cluster-sessions.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import type { Auth } from "./auth.ts";
import { createSessionMemo, type SessionMemo } from "./session-memo.ts";

export type { SessionUser };

const memos = new WeakMap<Auth, SessionMemo>();
const SIGNED_IN_USER = "signed-in-user";

/** The id of the user this request was found to be signed in as, if a route asked. */
export function signedInUserOf(c: Context): string | undefined {
  return c.get(SIGNED_IN_USER as never) as string | undefined;
}

/** The memo of accepted session copies of this shop's Better Auth (one per app, as tests build many). */
export function sessionMemoOf({ auth, live }: Pick<Deps, "auth" | "live">): SessionMemo {
  let memo = memos.get(auth);
  if (!memo) {
    let names: { token: string; data: string } | undefined;
    void auth.$context.then(({ authCookies }) => {
      names = { token: authCookies.sessionToken.name, data: authCookies.sessionData.name };
    });
    // Several workers (docs/decisions/073): a copy one of them accepted or wrote is known to the others at once,
    // so a shopper's next request, on whichever worker, skips Better Auth's check of it too.
    const share = isClusterWorker()
      ? shareSessionCopies((cookies) => memos.get(auth)?.rememberShared(cookies))
      : undefined;
    memo = createSessionMemo(live, () => names, share);
    memos.set(auth, memo);
  }
  return memo;
}

/** The signed-in user of this request, or null; decided by the session cookie, on the server. */
export async function currentUser(deps: Deps, c: Context): Promise<SessionUser | null> {
  const memo = sessionMemoOf(deps);
  const header = c.req.raw.headers.get("cookie");
  // Without a session token Better Auth answers null and sets nothing: said here without its machinery.
  if (!memo.hasToken(header)) return null;
  const cookies = memo.cookiesOf(header);
  const known = cookies && memo.known(cookies);
  if (known) {
    memo.counts.known++;
    c.set(SIGNED_IN_USER as never, known.user.id as never);
    return known.user;
  }
  memo.counts.checked++;
  const { headers, response: session } = await deps.auth.api.getSession({
    headers: c.req.raw.headers,
    returnHeaders: true,
  });
  // An ended session's cookie removal is not passed on: a request sent with the old token can be answered
  // after a password change has set the new one (a tab's cart stream asks at that moment), and the removal
  // would then sign the shopper out. Signing out removes the cookies itself.
  if (!session) return null;
  const setCookies = headers.getSetCookie();
  // A copy sent and no cookie set: Better Auth accepted the copy (a refused one is expired by a Set-Cookie).
  if (cookies && setCookies.length === 0) memo.remember(cookies);
  // A fresh copy set: the next request, which carries it, is known without Better Auth.
  else if (setCookies.length > 0) memo.rememberIssued(header, setCookies);
  // A session read from the database comes with a fresh signed copy for the cookie cache: passed on, so the
  // shopper's next request is answered without the database.
  for (const cookie of setCookies) c.header("Set-Cookie", cookie, { append: true });
  const { id, email, name, role } = session.user as typeof session.user & { role?: string };
  c.set(SIGNED_IN_USER as never, id as never);
  return { id, email, name, role: isStaffRole(role) ? role : "customer" };
}

export async function requireUser(deps: Deps, c: Context): Promise<SessionUser> {
  const user = await currentUser(deps, c);
  if (!user) throw httpError(401, "unauthenticated", "Please sign in to continue.");
  return user;
}

/** Staff or owner: the admin's orders, stock, questions, reviews and messages. */
export async function requireAdmin(deps: Deps, c: Context): Promise<SessionUser> {
  const user = await requireUser(deps, c);
  if (!isStaffRole(user.role)) throw httpError(403, "forbidden", "This account has no admin access.");
  return user;
}

/** The owner only: discount codes, staff, the audit log and the shop's details. */
export async function requireOwner(deps: Deps, c: Context): Promise<SessionUser> {
  const user = await requireAdmin(deps, c);
  if (user.role !== "owner") throw httpError(403, "forbidden", "Only the shop's owner can do this.");
  return user;
}

/** A router's guard for staff or owner: 401 signed out, 403 to a customer, before anything sent is read. */
export const adminOnly = (deps: Deps) =>
  createMiddleware<{ Variables: { admin: SessionUser } }>(async (c, next) => {
    c.set("admin", await requireAdmin(deps, c));
    await next();
  });

/** A router's guard for the owner only: 401 signed out, 403 to staff and customers, before anything sent is read. */
export const ownerOnly = (deps: Deps) =>
  createMiddleware<{ Variables: { owner: SessionUser } }>(async (c, next) => {
    c.set("owner", await requireOwner(deps, c));
    await next();
  });
