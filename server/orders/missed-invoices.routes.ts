import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { issueMissedInvoicesSchema, type MissedInvoices } from "../../common/schemas/missed-invoices.ts";
import { requireAdmin, requireOwner } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { validate } from "../validate.ts";
import { issueMissedInvoices, listOrdersWithoutInvoice, sellerInvoiceStatus } from "./missed-invoices.ts";

/**
 * Invoices that were not issued (docs/decisions/060): staff see whether the shop can issue them and which
 * orders lack one; only the owner issues them (401 signed out, 403 for staff and customers).
 */
export function missedInvoiceRoutes(deps: Deps) {
  const { db } = deps;
  return (
    new Hono<{ Variables: { admin: SessionUser } }>()
      .get("/", async (c) => {
        await requireAdmin(deps, c);
        const [seller, missed] = await Promise.all([sellerInvoiceStatus(db), listOrdersWithoutInvoice(db)]);
        return c.json({ ...seller, ...missed } satisfies MissedInvoices);
      })
      // The order page asks only this: whether an invoice can be issued, and what the details lack.
      .get("/seller", async (c) => {
        await requireAdmin(deps, c);
        return c.json(await sellerInvoiceStatus(db));
      })
      .post(
        "/issue",
        async (c, next) => {
          c.set("admin", await requireOwner(deps, c));
          await next();
        },
        validate("json", issueMissedInvoicesSchema),
        async (c) => {
          const seller = await sellerInvoiceStatus(db);
          if (!seller.canIssue) {
            throw httpError(
              409,
              "seller_details_incomplete",
              `No tax invoice can be issued until the shop's ${seller.missing.join(" and ")} ${seller.missing.length > 1 ? "are" : "is"} saved in Shop details.`,
            );
          }
          const outcomes = await issueMissedInvoices(db, c.req.valid("json"), c.get("admin"));
          if (outcomes.some((outcome) => outcome.issued)) deps.jobs.wake();
          return c.json({ outcomes });
        },
      )
  );
}
