import type { WhatsAppConsent } from "../../../common/cart-reminders.ts";
import { api } from "../../lib/api.ts";
import { useShopData } from "../../lib/shop-data.ts";
import { ConsentToggle } from "./consent-toggle.tsx";

const SOURCES: Record<string, string> = {
  checkout: "at checkout",
  account: "on this page",
  unsubscribe_link: "with the unsubscribe link in a reminder",
  whatsapp: "on WhatsApp, by stopping our messages there",
};

/** A ten-digit Indian mobile as the shopper reads it: +91 98765 43210. */
const shownMobile = (mobile: string) =>
  /^\d{10}$/.test(mobile) ? `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}` : mobile;

/**
 * Cart reminders on WhatsApp (docs/decisions/096), a consent of its own for the number it was given for: the
 * account's standing answer with when and how it was given, turned off and on here and saved at once.
 */
export function WhatsAppConsentSwitch({ consent }: { consent: WhatsAppConsent | null }) {
  const { config } = useShopData();
  if (!consent) {
    if (!config.whatsappReminders) return null;
    return (
      <p className="mt-4 border-stone-200 border-t pt-4 text-sm text-stone-700 dark:border-stone-700 dark:text-stone-300">
        No reminders on WhatsApp. To have them, tick "Remind me on WhatsApp too" at checkout: they go to the
        delivery mobile.
      </p>
    );
  }
  return (
    <div className="mt-4 border-stone-200 border-t pt-4 dark:border-stone-700">
      <ConsentToggle
        consent={consent}
        name="remindOnWhatsApp"
        asSwitch
        title="Remind me on WhatsApp, and send me offers there"
        detail={(standing) => (
          <>
            {standing.consented ? "On" : "Off"}: one message per cart you leave behind, to{" "}
            <span className="whitespace-nowrap">{shownMobile(standing.mobile)}</span>.
          </>
        )}
        save={(consented, standing) =>
          api<WhatsAppConsent>("/marketing-consent/whatsapp", {
            method: "PUT",
            body: { consented, where: "account", mobile: standing.mobile },
          })
        }
        said={(consented) =>
          consented ? "Saved: we will remind you on WhatsApp." : "Saved: no reminders or offers on WhatsApp."
        }
        failed="Not saved: please try again."
        sources={SOURCES}
      />
    </div>
  );
}
