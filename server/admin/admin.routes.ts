import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { adminOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { getAdminSummary } from "./admin.data.ts";

/** Sub-routers mounted under adminRoutes see the signed-in admin as c.get("admin"). */
export type AdminEnv = { Variables: { admin: SessionUser } };

/**
 * Everything under /api/admin. The guard runs before any route, unknown paths included: 401 signed out,
 * 403 for an account without the admin role, decided here on the server whatever the web app shows.
 * Other admin features mount their routers here: `.route("/orders", adminOrderRoutes(deps))`.
 */
export function adminRoutes(deps: Deps) {
  return new Hono<AdminEnv>()
    .use("*", adminOnly(deps))
    .get("/summary", async (c) => c.json(await getAdminSummary(deps.db)));
}
