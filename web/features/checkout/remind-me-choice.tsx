import { ConsentBox, type ConsentChoiceProps } from "./consent-box.tsx";

/**
 * "Remind me about my cart" at checkout (docs/decisions/089): unticked until the shopper ticks it, in the same
 * words as the account page's (web/features/settings/marketing-consent.tsx). Not shared with that page, so no
 * chunk is added to what every page's router lists. `status` says what became of the last change.
 */
export function RemindMeChoice({ checked, onChange, status }: ConsentChoiceProps) {
  return (
    <ConsentBox
      name="remindMe"
      title="Remind me about a cart I leave behind, and send me offers"
      detail="At most two reminders per cart. Unsubscribe from any of them in one tap."
      checked={checked}
      onChange={onChange}
      status={status}
    />
  );
}
