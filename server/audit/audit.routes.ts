import { Hono } from "hono";
import { auditListQuerySchema } from "../../common/schemas/audit.ts";
import { requireOwner } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { listAudit } from "./audit.data.ts";

/** The owner reads who changed what; staff get 403 before anything sent is read. */
export function adminAuditRoutes(deps: Deps) {
  return new Hono()
    .use(async (c, next) => {
      await requireOwner(deps, c);
      await next();
    })
    .get("/", validate("query", auditListQuerySchema), async (c) =>
      c.json(await listAudit(deps.db, c.req.valid("query"))),
    );
}
