import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { setStaffRoleSchema } from "../../common/schemas/staff.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { validate } from "../validate.ts";
import { describeRoleChange, listStaff, setRole } from "./roles.ts";

/**
 * The owner's staff page (/admin/staff): who has admin access, and granting, changing and revoking it by
 * e-mail through the same setRole as `npm run admin`. The guard runs before anything sent is read: 401
 * signed out, 403 for staff and customers.
 */
export function adminStaffRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", async (c) => c.json({ people: await listStaff(db), youId: c.get("owner").id }))
    .put("/", validate("json", setStaffRoleSchema), async (c) => {
      const { email, role } = c.req.valid("json");
      const change = await setRole(db, email, role, c.get("owner"));
      const message = describeRoleChange(change, email);
      if (change.outcome === "no_such_account") {
        throw httpError(404, "no_such_account", `email: ${message}`, { email: message });
      }
      if (change.outcome === "last_owner") throw httpError(409, "last_owner", message);
      return c.json({ message, people: await listStaff(db) });
    });
}
