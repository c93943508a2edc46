import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import {
  afterOrderCsvParamSchema,
  analyticsSettingsSchema,
  refundRowsOf,
  type SalesAnswer,
  type SalesFigures,
  type SalesTable,
  salesCsvParamSchema,
  salesQuerySchema,
} from "../../common/analytics.ts";
import { requireAdmin, requireOwner } from "../auth/session.ts";
import { csvResponse, csvRow } from "../csv.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { afterTheOrder, cameBackBy } from "./after-order.ts";
import {
  CSV_DIMENSIONS,
  CSV_PARTS,
  requireSalesReader as requireSalesReaderOf,
  salesFigures,
  saveStaffSeeSales,
  staffSeeSales,
} from "./sales.ts";
import { workToDo } from "./work.ts";

/** A table's rows as the CSV lines a response streams. */
async function* csvLines(rows: Iterable<Parameters<typeof csvRow>[0]>) {
  for (const row of rows) yield `${csvRow(row)}\r\n`;
}

/** Paise as rupees with two decimals, the way the other CSV exports write money: 119900 is 1199.00. */
const rupees = (paise: number) => (paise / 100).toFixed(2);

/** Each table of the figures as CSV rows, header first: the same rows the page shows. */
function csvRowsOf(figures: SalesFigures, table: SalesTable): (string | number)[][] {
  switch (table) {
    case "days":
      return [
        ["Day", "Orders", "Sales (₹, GST included)"],
        ...figures.byDay.map((day) => [day.date, day.orders, rupees(day.salesPaise)]),
      ];
    case "items":
      return [
        ["Item", "Kind", "Units", "Revenue (₹, before order discounts)"],
        ...figures.items.map((item) => [item.name, item.kind, item.units, rupees(item.revenuePaise)]),
      ];
    case "states":
      return [
        ["State", "Orders", "Sales (₹, GST included)"],
        ...figures.states.map((row) => [row.state, row.orders, rupees(row.salesPaise)]),
      ];
    case "payments":
      return [
        ["Payment", "Orders", "Sales (₹, GST included)"],
        ...figures.payments.map((row) => [
          row.method === "cod" ? "Cash on delivery" : "Paid online",
          row.orders,
          rupees(row.salesPaise),
        ]),
      ];
    case "codes":
      return [
        ["Code", "Orders", "Discount given (₹)", "Sales (₹, GST included)"],
        ...figures.codes.map((row) => [
          row.code,
          row.orders,
          rupees(row.discountPaise),
          rupees(row.salesPaise),
        ]),
      ];
    case "refunds":
      return [
        ["Money back", "Count", "Amount (₹, GST included)"],
        ...refundRowsOf(figures).map((row) => [row.label, row.orders, rupees(row.amountPaise)]),
      ];
  }
}

/**
 * The admin home's figures (docs/decisions/080): today's work for everyone with admin access; the sales for
 * the owner, and for staff when the owner shares them (decided here, whatever the page shows).
 */
export function analyticsRoutes(deps: Deps) {
  /** The sales' tables and the after-order figures answer whoever may read the sales, and 403 anyone else. */
  const requireSalesReader = (user: SessionUser) => requireSalesReaderOf(deps.db, user);
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(async (c, next) => {
      c.set("admin", await requireAdmin(deps, c));
      await next();
    })
    .get("/work", async (c) => c.json(await workToDo(deps.db)))
    .get("/sales", validate("query", salesQuerySchema), async (c) => {
      const admin = c.get("admin");
      const shared = await staffSeeSales(deps.db);
      if (admin.role !== "owner" && !shared) return c.json({ visible: false } satisfies SalesAnswer);
      const figures = await salesFigures(deps.db, c.req.valid("query"));
      return c.json({
        visible: true,
        figures,
        staffSeeSales: shared,
        canShare: admin.role === "owner",
      } satisfies SalesAnswer);
    })
    .get(
      "/sales/:file",
      validate("param", salesCsvParamSchema),
      validate("query", salesQuerySchema),
      async (c) => {
        await requireSalesReader(c.get("admin"));
        const table = c.req.valid("param").file.replace(/\.csv$/, "") as SalesTable;
        const figures = await salesFigures(
          deps.db,
          c.req.valid("query"),
          new Date(),
          CSV_PARTS[table],
          CSV_DIMENSIONS[table],
        );
        const rows = csvRowsOf(figures, table);
        const { from, to } = figures.period;
        return csvResponse(csvLines(rows), `sales-${table}-${from}-to-${to}.csv`);
      },
    )
    .get("/after-order", validate("query", salesQuerySchema), async (c) => {
      await requireSalesReader(c.get("admin"));
      return c.json(await afterTheOrder(deps.db, c.req.valid("query")));
    })
    .get(
      "/after-order/:file",
      validate("param", afterOrderCsvParamSchema),
      validate("query", salesQuerySchema),
      async (c) => {
        await requireSalesReader(c.get("admin"));
        const byState = c.req.valid("param").file === "states.csv";
        // Only this table's sums: a CSV costs its own rows, not the whole panel's.
        const places = await cameBackBy(deps.db, c.req.valid("query"), byState ? "state" : "pin");
        const rows = [
          [byState ? "State" : "PIN starts", "Shipped", "Came back", "Per 1000", "Cost (₹, both ways)"],
          ...places.rows.map((row) => [
            row.key,
            row.shipped,
            row.returned,
            row.ratePerMille,
            rupees(row.costPaise),
          ]),
        ];
        const { from, to } = places.period;
        return csvResponse(csvLines(rows), `came-back-by-${byState ? "state" : "pin"}-${from}-to-${to}.csv`);
      },
    )
    .put("/settings", validate("json", analyticsSettingsSchema), async (c) => {
      const owner = await requireOwner(deps, c);
      const allowed = await saveStaffSeeSales(deps.db, c.req.valid("json").staffSeeSales, owner);
      return c.json({ staffSeeSales: allowed });
    });
}
