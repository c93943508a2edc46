import { Hono } from "hono";
import { salesQuerySchema } from "../../common/analytics.ts";
import {
  type AccountMarketingConsent,
  cartReminderSettingsSchema,
  marketingConsentSchema,
} from "../../common/cart-reminders.ts";
import { isMobileAccountEmail } from "../../common/mobile-account.ts";
import { whatsAppConsentSchema } from "../../common/schemas/whatsapp-consent.ts";
import { staffSeeSales } from "../analytics/sales.ts";
import { requireAdmin, requireOwner, requireUser } from "../auth/session.ts";
import { csvResponse, csvRow } from "../csv.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { validate } from "../validate.ts";
import { accountWhatsAppConsent, consentOf, recordConsent, recordWhatsAppConsent } from "./consent.ts";
import { readReminderSettings, saveReminderSettings } from "./reminder-settings.ts";
import { cartReminderReport } from "./report.ts";

/** The owner's cart reminder settings and the figures of what they won back (docs/decisions/089). */
export function adminCartReminderRoutes(deps: Deps) {
  /** The figures are sales figures: the owner's, and staff's when the owner shares the sales. */
  const requireReader = async (role: string) => {
    if (role !== "owner" && !(await staffSeeSales(deps.db))) {
      throw httpError(403, "forbidden", "The owner has not shared the sales figures with staff.");
    }
  };
  return new Hono()
    .get("/settings", async (c) => {
      await requireOwner(deps, c);
      return c.json(await readReminderSettings(deps.db));
    })
    .put("/settings", validate("json", cartReminderSettingsSchema), async (c) => {
      const owner = await requireOwner(deps, c);
      return c.json(await saveReminderSettings(deps.db, c.req.valid("json"), owner));
    })
    .get("/report", validate("query", salesQuerySchema), async (c) => {
      await requireReader((await requireAdmin(deps, c)).role);
      return c.json(await cartReminderReport(deps.db, c.req.valid("query")));
    })
    .get("/report.csv", validate("query", salesQuerySchema), async (c) => {
      await requireReader((await requireAdmin(deps, c)).role);
      const report = await cartReminderReport(deps.db, c.req.valid("query"));
      async function* lines() {
        yield `${csvRow(["Day left", "Carts left behind", "Reminded", "Reminders sent (e-mail)", "Reminders sent (WhatsApp)", "Won back", "Revenue (₹, GST included)"])}\r\n`;
        for (const day of report.days) {
          yield `${csvRow([day.date, day.leftBehind, day.reminded, day.remindersSent, day.whatsappSent, day.wonBack, (day.revenuePaise / 100).toFixed(2)])}\r\n`;
        }
      }
      const { from, to } = report.period;
      return csvResponse(lines(), `carts-left-behind-${from}-to-${to}.csv`);
    });
}

/** A signed-in shopper's yes or no to cart reminders and offers, recorded with where it was given. */
export function marketingConsentRoutes(deps: Deps) {
  return (
    new Hono()
      .get("/", async (c) => {
        const user = await requireUser(deps, c);
        const [email, whatsapp] = await Promise.all([
          consentOf(deps.db, user.email),
          accountWhatsAppConsent(deps.db, user.id),
        ]);
        return c.json({ ...email, whatsapp } satisfies AccountMarketingConsent);
      })
      // WhatsApp is a consent of its own, for the number given with it (docs/decisions/096).
      .put("/whatsapp", validate("json", whatsAppConsentSchema), async (c) => {
        const user = await requireUser(deps, c);
        const { consented, where, mobile } = c.req.valid("json");
        return c.json(
          await recordWhatsAppConsent(deps.db, { mobile, userId: user.id, consented, source: where }),
        );
      })
      .put("/", validate("json", marketingConsentSchema), async (c) => {
        const user = await requireUser(deps, c);
        if (isMobileAccountEmail(user.email)) {
          throw httpError(
            422,
            "no_email",
            "Reminders come by e-mail, and this account has none. Add an e-mail address first.",
          );
        }
        const { consented, where } = c.req.valid("json");
        return c.json(
          await recordConsent(deps.db, { email: user.email, userId: user.id, consented, source: where }),
        );
      })
  );
}
