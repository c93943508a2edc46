import type { MarketingConsent } from "../../../common/cart-reminders.ts";
import { api } from "../../lib/api.ts";
import { ConsentToggle } from "./consent-toggle.tsx";

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
  if (noEmail) {
    return (
      <p className="text-stone-700 dark:text-stone-300">
        Reminders come by e-mail, and an account made with a mobile number has none.
      </p>
    );
  }
  return (
    <div>
      {/* The same words as at checkout (web/features/checkout/remind-me-choice.tsx). */}
      <ConsentToggle
        consent={consent}
        name="remindMe"
        title="Remind me about a cart I leave behind, and send me offers"
        detail={() => "At most two reminders per cart. Unsubscribe from any of them in one tap."}
        save={(consented) =>
          api<MarketingConsent>("/marketing-consent", {
            method: "PUT",
            body: { consented, where: "account" },
          })
        }
        said={(consented) =>
          consented ? "Saved: we will remind you about a cart you leave." : "Saved: no reminders or offers."
        }
        failed="Something went wrong. Please try again."
        sources={SOURCES}
      />
    </div>
  );
}
