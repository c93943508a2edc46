import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { salesQuerySchema } from "../../common/analytics.ts";
import {
  dropPercent,
  FUNNEL_STEP_LABELS,
  FUNNEL_STEPS,
  type FunnelFigures,
  funnelCsvParamSchema,
  funnelSettingsSchema,
} from "../../common/funnel.ts";
import { requireAdmin, requireOwner } from "../auth/session.ts";
import { csvResponse, csvRow } from "../csv.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { countingNow, funnelFigures, saveFunnelCounting } from "./funnel.ts";
import { requireSalesReader } from "./sales.ts";

/** The days as CSV rows, header first: each step's sessions, then the drop to the next step in percent. */
async function* csvLines(figures: Omit<FunnelFigures, "canSwitch">) {
  const drops = FUNNEL_STEPS.slice(1).map((step) => `Drop to ${FUNNEL_STEP_LABELS[step].toLowerCase()} (%)`);
  yield `${csvRow(["Day", ...FUNNEL_STEPS.map((step) => FUNNEL_STEP_LABELS[step]), ...drops])}\r\n`;
  for (const day of figures.byDay) {
    const counts = FUNNEL_STEPS.map((step) => day[step]);
    const dropsOfDay = counts
      .slice(1)
      .map((reached, index) => dropPercent(counts[index] ?? 0, reached) ?? "");
    yield `${csvRow([day.date, ...counts, ...dropsOfDay])}\r\n`;
  }
}

/**
 * The funnel on the admin home (docs/decisions/090): sessions per step per day for the period "Sales at a glance"
 * shows, its CSV file, and the owner's switch. Read by whoever may read the sales.
 */
export function funnelRoutes(deps: Deps) {
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(async (c, next) => {
      c.set("admin", await requireAdmin(deps, c));
      await next();
    })
    .get("/", validate("query", salesQuerySchema), async (c) => {
      const admin = c.get("admin");
      await requireSalesReader(deps.db, admin);
      const figures = await funnelFigures(deps.db, c.req.valid("query"));
      return c.json({ ...figures, canSwitch: admin.role === "owner" } satisfies FunnelFigures);
    })
    .get("/settings", async (c) => {
      await requireOwner(deps, c);
      return c.json({ counting: await countingNow(deps.db) });
    })
    .get(
      "/:file",
      validate("param", funnelCsvParamSchema),
      validate("query", salesQuerySchema),
      async (c) => {
        await requireSalesReader(deps.db, c.get("admin"));
        const figures = await funnelFigures(deps.db, c.req.valid("query"));
        const { from, to } = figures.period;
        return csvResponse(csvLines(figures), `funnel-${from}-to-${to}.csv`);
      },
    )
    .put("/settings", validate("json", funnelSettingsSchema), async (c) => {
      const owner = await requireOwner(deps, c);
      const counting = await saveFunnelCounting(deps.db, c.req.valid("json").counting, owner);
      return c.json({ counting });
    });
}
