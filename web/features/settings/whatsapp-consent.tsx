import { useId, useState } from "react";
import type { WhatsAppConsent } from "../../../common/cart-reminders.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { api, isApiError } from "../../lib/api.ts";
import { useShopData } from "../../lib/shop-data.ts";

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
  const detailId = useId();
  const [standing, setStanding] = useState(consent);
  const [status, setStatus] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!standing) {
    if (!config.whatsappReminders) return null;
    return (
      <p className="mt-4 border-stone-200 border-t pt-4 text-sm text-stone-700 dark:border-stone-700 dark:text-stone-300">
        No reminders on WhatsApp. To have them, tick "Remind me on WhatsApp too" at checkout: they go to the
        delivery mobile.
      </p>
    );
  }
  const change = async (consented: boolean) => {
    const before = standing;
    // The switch shows the shopper's choice at once; a refusal puts it back and says why.
    setStanding({ ...standing, consented });
    setSaving(true);
    setStatus("Saving…");
    try {
      const saved = await api<WhatsAppConsent>("/marketing-consent/whatsapp", {
        method: "PUT",
        body: { consented, where: "account", mobile: standing.mobile },
      });
      setStanding(saved);
      setStatus(
        consented ? "Saved: we will remind you on WhatsApp." : "Saved: no reminders or offers on WhatsApp.",
      );
    } catch (caught) {
      setStanding(before);
      setStatus(isApiError(caught) ? caught.message : "Not saved: please try again.");
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="mt-4 border-stone-200 border-t pt-4 dark:border-stone-700">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          role="switch"
          name="remindOnWhatsApp"
          checked={standing.consented}
          aria-checked={standing.consented}
          disabled={saving}
          aria-describedby={detailId}
          onChange={(event) => change(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">Remind me on WhatsApp, and send me offers there</span>
          <span id={detailId} className="text-stone-600 dark:text-stone-400">
            {standing.consented ? "On" : "Off"}: one message per cart you leave behind, to{" "}
            <span className="whitespace-nowrap">{shownMobile(standing.mobile)}</span>.
          </span>
        </span>
      </label>
      <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {status ?? ""}
      </p>
      {standing.since && standing.source ? (
        <p className="mt-1 pl-8 text-sm text-stone-600 dark:text-stone-400">
          {standing.consented ? "You said yes" : "You said no"} {SOURCES[standing.source] ?? ""} on{" "}
          {formatDateTime(standing.since)}.
        </p>
      ) : null}
    </div>
  );
}
