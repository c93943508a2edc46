import { useState } from "react";
import type { MarketingConsent } from "../../../common/cart-reminders.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { api, isApiError } from "../../lib/api.ts";

const SOURCES: Record<string, string> = {
  checkout: "at checkout",
  account: "on this page",
  unsubscribe_link: "with the unsubscribe link in a reminder",
  mail_client: "with your mail app's unsubscribe button",
};

/** Whether and since when this account gets cart reminders and offers; changed here, saved at once. */
export function MarketingConsentChoice({
  consent,
  noEmail,
}: {
  consent: MarketingConsent;
  noEmail: boolean;
}) {
  const [standing, setStanding] = useState(consent);
  const [status, setStatus] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (noEmail) {
    return (
      <p className="text-stone-700 dark:text-stone-300">
        Reminders come by e-mail, and an account made with a mobile number has none.
      </p>
    );
  }
  const change = async (consented: boolean) => {
    const before = standing;
    // The box shows the shopper's choice at once; a refusal puts it back and says why.
    setStanding({ ...standing, consented });
    setSaving(true);
    setStatus("Saving…");
    try {
      const saved = await api<MarketingConsent>("/marketing-consent", {
        method: "PUT",
        body: { consented, where: "account" },
      });
      setStanding(saved);
      setStatus(
        consented ? "Saved: we will remind you about a cart you leave." : "Saved: no reminders or offers.",
      );
    } catch (caught) {
      setStanding(before);
      setStatus(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
    } finally {
      setSaving(false);
    }
  };
  return (
    <div>
      {/* The same words as at checkout (web/features/checkout/remind-me-choice.tsx). */}
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="remindMe"
          checked={standing.consented}
          disabled={saving}
          onChange={(event) => change(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">Remind me about a cart I leave behind, and send me offers</span>
          <span className="text-stone-600 dark:text-stone-400">
            At most two reminders per cart. Unsubscribe from any of them in one tap.
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
