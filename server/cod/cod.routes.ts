import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { codSummaryQuerySchema, importRemittanceSchema, recordCashSchema } from "../../common/cod.ts";
import { orderNumberSchema } from "../../common/schemas/orders.ts";
import { adminOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { codSummary, importRemittance, recordCash } from "./cod.data.ts";

/** Cash on delivery counted (docs/decisions/059): the page's figures, cash recorded by hand, reports imported. */
export function adminCodRoutes(deps: Deps) {
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(adminOnly(deps))
    .get("/", validate("query", codSummaryQuerySchema), async (c) => {
      return c.json(await codSummary(deps.db, new Date(), c.req.valid("query")));
    })
    .post(
      "/orders/:number/cash",
      validate("param", orderNumberSchema),
      validate("json", recordCashSchema),
      async (c) => {
        const cash = await recordCash(
          deps.db,
          c.req.valid("param").number,
          c.req.valid("json"),
          c.get("admin"),
        );
        return c.json({ cash }, 201);
      },
    )
    .post("/remittances", validate("json", importRemittanceSchema), async (c) => {
      return c.json(await importRemittance(deps.db, c.req.valid("json").csv, c.get("admin")));
    });
}
